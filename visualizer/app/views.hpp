// The window's views, drawn with Dear ImGui's draw lists from what the visualizer core
// computes. No GL and no GLFW here: window.cpp owns the window, and the unit tests draw these
// views with ImGui alone (no renderer), as Dear ImGui's example_null does.
//
//   +---------------------------------------------------------------+
//   | playback: |< < play > >|  speed  steps/time  scrubber  run     |
//   +-------------------------------+-------------------------------+
//   | ring view                     | buffer view                   |
//   |   ranks on a circle, chunks   |   a row of cells per rank     |
//   |   moving along the edges      |   coloured by contributions   |
//   +-------------------------------+-------------------------------+
//   | tabs: loss | bytes per rank | pipeline | launch | notes        |
//   +---------------------------------------------------------------+
//   | status: source, ranks connected, events, frame time           |
#pragma once
#include <imgui.h>

#include <string>

#include "theme.hpp"
#include "viz/launcher.hpp"
#include "viz/layout.hpp"
#include "viz/playback.hpp"
#include "viz/session.hpp"

namespace ringlab::viz {

struct LaunchForm {
  int lesson = 5;
  int np = 4;
  char flags[256] = "--schedule --count 8 --type int32";
  std::string error;
};

struct App {
  Session session;
  Playback playback;
  Server* server = nullptr;  // live source, when listening
  std::string source;        // for the status line
  Launcher launcher;
  LaunchForm form;
  std::string mpirun, bin_dir;  // where the launch panel finds the kit
  bool log_scale = false, show_lr = true;
  int smooth = 1;  // loss plot: moving average over this many steps
  int bytes_coll = 0;
  bool bytes_follow = true;
  bool pipeline_follow = true;  // the pipeline chart shows the call of the step on screen
  double frame_ms = 0;
  std::string open_tab;  // select this chart tab on the next frame ("loss", "bytes", ...)
  float font_scale = 1;  // the viewer's text size, times 1/40 of the window height ([ and ] change it)
  ImU32 background = palette().background;  // what the views draw on (the window's clear colour)
  RingLayout ring;                          // as last drawn (the screenshot test reads it)
  float ring_rect[4] = {0, 0, 0, 0};
};

// A pane that stays where the layout put it: no moving, resizing or collapsing it.
constexpr ImGuiWindowFlags kPane = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                                   ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings;

// The whole window: every view laid out in a `width` x `height` screen.
void draw_app(App& app, float width, float height);
// Instructor keys: space play/pause, left/right step, +/- speed, [ ] text smaller/bigger.
void handle_keys(App& app);

// The views, each filling the current ImGui window's remaining space.
void draw_ring_view(App& app);
void draw_buffer_view(App& app);
void draw_loss_plot(App& app);
// `pinned`: always this collective's bytes (a demo comparing two), no chooser; else the one
// chosen, or the one on screen.
void draw_bytes_chart(App& app, const std::string& pinned = "");
void draw_pipeline_chart(App& app);
void draw_launch_panel(App& app);
// What the launch panel's start button does: runs app.form's lesson with --viz pointing here
// (`stream` false: without --viz, for a lesson that streams nothing).
bool start_lesson(App& app, bool stream = true);
// A legend's entry at `p`: a colour square one text line high, then `text`. Returns the
// text's width (the caller leaves room for the square and a gap).
float legend_entry(ImDrawList* dl, ImVec2 p, ImU32 colour, const char* text);

// --measure: every view drawn with no window at `width` x `height`, then, view by view, what the
// back of the room gets: the text height, the lowest contrast of a label on its background, and
// how many labels overlap (one line each on stdout). False, with `error`: no font.
bool measure_views(App& app, int width, int height, std::string* error);
// Where the launch panel finds the kit: scripts/ringlab-mpirun in the source tree, the lessons
// beside this program (build/bin).
void find_kit(App& app, const char* argv0);

}  // namespace ringlab::viz
