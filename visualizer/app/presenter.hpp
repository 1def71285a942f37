// Presenter mode: the deck (viz/deck.hpp) drawn full-window with a real TTF font, sizes that
// follow the window, and on demo slides the visualizer's own views (views.hpp) beside the
// text, fed by a lesson the launcher starts or a recorded trace. ImGui only, no GL: the GL
// shell (present_main.cpp, window.cpp) owns windows, textures and the font texture.
//
//   +------------------------------------------------------------------+
//   |  ## Ring allreduce            |  lesson 05 · 4 ranks   [R] run    |
//   |  - text, lists, code, tables  |  +-----------------------------+  |
//   |    (left 40 % on demo slides, |  | ring view / buffer view ... |  |
//   |     the whole slide otherwise)|  +-----------------------------+  |
//   |                               |  output pane (the run's lines)   |
//   | deck title            12 / 30 ·  00:14:32                         |
#pragma once
#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "views.hpp"
#include "viz/deck.hpp"

namespace ringlab::viz {

// The presenter's fonts, built for one window height (rebuilt when it changes much).
struct SlideFonts {
  ImFont *body = nullptr, *bold = nullptr, *italic = nullptr, *bold_italic = nullptr, *mono = nullptr;
  ImFont *h1 = nullptr, *h2 = nullptr, *ui = nullptr;
  int height = 0;  // the window height they were built for
};
// Adds DejaVu Sans and DejaVu Sans Mono (found through fontconfig, fonts.hpp) at sizes for a
// `height`-pixel window, with the glyphs slides use (Latin, Greek, sub/superscripts, arrows,
// math). False, with `error` set: the family is not installed.
bool build_slide_fonts(ImFontAtlas& atlas, int height, SlideFonts& fonts, std::string* error);
// The glyphs slides use (Latin, Greek, sub/superscripts, arrows, math, dashes): for any font
// that shows slide text, such as the notes window's.
const ImWchar* slide_glyph_ranges();

// One thing to draw, positioned: the layout is computed, measured (for the clipping test),
// then drawn.
struct SlideItem {
  enum class Kind { text, rect, image } kind = Kind::text;
  ImFont* font = nullptr;
  float size = 0;
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // the item's extent on screen
  ImU32 colour = 0;
  std::string text{};         // text: the glyphs; image: the file
  ImTextureID tex = nullptr;  // image
};
struct SlideLayout {
  std::vector<SlideItem> items;
  float area[4] = {0, 0, 0, 0};    // where the slide's content must fit (x0 y0 x1 y1)
  float extent[4] = {0, 0, 0, 0};  // where it ended up (every item's box together)
  float title[4] = {0, 0, 0, 0};   // the first heading's box (the screenshot test looks there)
  float demo[4] = {0, 0, 0, 0};    // demo slides: the live view's rectangle
  float scale = 1;                 // below 1: shrunk to fit
  bool fits = true;                // every item inside `area`
};
// Image size lookup (the GL shell loads the PNG): false when it cannot be read.
using ImageInfo = std::function<bool(const std::string& path, int* w, int* h, ImTextureID* tex)>;

SlideLayout layout_slide(const Slide& slide, const SlideFonts& fonts, float width, float height,
                         const ImageInfo& image);

struct Presenter {
  Deck deck;
  SlideFonts fonts;
  ImageInfo image;
  int current = 0;
  bool black = false;
  bool want_fullscreen_toggle = false;  // F: the GL shell switches the monitor
  bool jumping = false;                 // G pressed: digits typed until Enter
  std::string jump_digits;
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
  // The demo on screen: which slide it belongs to, and whether it is a live run.
  int demo_slide = -1;
  bool demo_live = false;
  double demo_speed = 2;   // steps per second as a run's frames arrive
  bool show_views = true;  // false: text only (the clipping check measures without runs)
  bool show_clock = true;  // false in the handout
  SlideLayout last;        // as last drawn

  const Slide* slide() const { return deck.slides.empty() ? nullptr : &deck.slides[current]; }
  std::string clock() const;  // elapsed since start, "00:14:32"
};

// Shows slide `index` (clamped). Entering a demo slide readies its demo: a fresh session, its
// trace opened (or empty until R).
void go_to(App& app, Presenter& p, int index);
// The demo's run at the step its `at:` names (default: the middle one): a replay, the handout.
void show_demo_step(App& app, const Presenter& p);
// R: a fresh run of this slide's lesson through the launcher (or the trace replayed from 0).
bool run_demo(App& app, Presenter& p);
// The demo's run has ended and everything it streamed has arrived.
bool demo_finished(const App& app, const Presenter& p);
// Keys: next/previous (→ ← Space PageDown PageUp), Home End, B black, F full screen, G jump, R run.
void presenter_keys(App& app, Presenter& p);
// Time passing: live frames animate at demo_speed; a replay plays.
void presenter_tick(App& app, Presenter& p, double dt);
// The whole slide into a `width` x `height` window.
void draw_presenter(App& app, Presenter& p, float width, float height);
// The notes window: this slide's notes, the next slide's title, the clock.
void draw_presenter_notes(const Presenter& p, float width, float height);

// --check (deck_check.cpp), before the workshop, not in front of the room: every demo of `deck`
// (read from `deck_path`) runs once, as R would start it, with a trace file instead of a live
// stream. A demo whose lesson refuses its flags or fails, and an `at:` past the run's last
// step, are each one line naming the deck's line. Needs no display. Returns how many problems.
int check_deck_demos(const Deck& deck, const std::string& deck_path, const std::string& mpirun,
                     const std::string& bin_dir, double timeout_s);

}  // namespace ringlab::viz
