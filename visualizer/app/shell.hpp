// The window shell both programs share (the viewer, viz_main.cpp; the slides, present_main.cpp):
// their window set up and torn down as Dear ImGui's example_glfw_opengl3 does, its picture
// saved as a PNG (window.cpp), and the flags both take (flags.cpp). A frame, in each
// main: begin_frame, the views (views.hpp, presenter.hpp), ImGui::Render(), draw_frame, then
// write_png or glfwSwapBuffers.
#pragma once
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <string>

namespace ringlab::viz {

using Clock = std::chrono::steady_clock;
inline double ms_since(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

// --- window.cpp: a GLFW window, its OpenGL 3 context, a Dear ImGui context with its backends ---
struct Window {
  GLFWwindow* glfw = nullptr;  // null: no OpenGL 3 window could be opened
  ImGuiContext* imgui = nullptr;
};
// After glfwInit(): the window and its contexts, left current. Hidden unless `visible`
// (screenshots, the handout). `share`: a window whose GL textures this one uses too.
// `callbacks` false: ImGui does not install its input callbacks (the caller routes the keys).
Window open_window(int width, int height, const std::string& title, bool visible, GLFWwindow* share = nullptr,
                   bool callbacks = true);
// Makes `w` current (GL and ImGui); begin_frame then starts a Dear ImGui frame in it.
void make_current(const Window& w);
void begin_frame(const Window& w);
// After ImGui::Render(): clears a `width` x `height` framebuffer to `clear` (the theme's
// background, theme.hpp, for the slides and the viewer) and draws the frame.
void draw_frame(int width, int height, ImU32 clear);
// After the current context's fonts were rebuilt: their texture, uploaded again.
void upload_fonts();
void close_window(Window& w);

// The visualizer's one PNG writer (--screenshot, --export, the notes).
// After draw_frame, before swapping: waits for GL to finish, reads the back buffer (`w` x `h`)
// and writes it top row first, as image files want it. False when the file cannot be written.
bool write_png(const std::string& path, int w, int h);

// --- flags.cpp: the flags both programs take, spelled the same in each ---
struct CommonFlags {
  int width = 1280, height = 720;
  std::string size;  // --size WxH: sets width and height
  std::string theme = "dark";
  double max_seconds = 0;
  bool summary = false, quit_when_done = false;
};
void add_common_flags(CLI::App& cli, CommonFlags& o);
// Parses argv, then applies --size (to width and height) and --theme (to the palette). -1: go
// on; else `program` exits now with that code: 0 after --help, 2 after one error line.
int parse_flags(CLI::App& cli, int argc, char** argv, const char* program, CommonFlags& o);
// Bad input, the house way: one line (printf's `format`, a newline added) on stderr, then
// `exit_code`, to return from main.
int fail(int exit_code, const char* format, ...) __attribute__((format(printf, 2, 3)));

}  // namespace ringlab::viz
