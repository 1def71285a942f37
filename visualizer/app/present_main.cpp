// ringlab-present — a markdown deck full-window (the workshop's: slides/ringlab.md), its demo
// slides running a lesson live in the visualizer's views. Setup, loop, shutdown, in that order,
// as in viz_main.cpp; what a slide draws comes from presenter.cpp. Keys: docs/presenting.md.
//   ringlab-present DECK [--notes] [--fullscreen] [--slide N]    present
//   ringlab-present DECK --slide N --screenshot out.png           one slide to a PNG
//   ringlab-present DECK --export DIR       every slide to DIR/slide-NNN.png (demo slides: a real run)
//   ringlab-present DECK --measure          every slide's layout (fits? scale) printed, no PNGs
//   ringlab-present DECK --check            every demo run once, as R would (no display)
//   ringlab-present DECK --keys "Right Right End Home"    scripted key presses, one every other frame
#include <sys/stat.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "fonts.hpp"
#include "presenter.hpp"
#include "shell.hpp"
#include "text_boxes.hpp"
#include "theme.hpp"

using namespace ringlab::viz;
using Clock = std::chrono::steady_clock;

namespace {
struct Options {
  CommonFlags common;
  std::string deck, screenshot, export_dir, keys;
  bool notes = false, fullscreen = false, measure = false, check = false;
  int slide = 1;  // 1-based
};

void add_flags(CLI::App& cli, Options& o) {
  cli.add_option("deck", o.deck, "The markdown deck to present (the workshop's: slides/ringlab.md)")
      ->required();
  cli.add_flag("--notes", o.notes, "A second window with notes, next slide, clock");
  cli.add_flag("--fullscreen", o.fullscreen, "Start full screen (F toggles)");
  cli.add_option("--slide", o.slide, "Start at this slide (1-based)");
  cli.add_option("--screenshot", o.screenshot, "Render the slide to this PNG file and exit");
  cli.add_option("--export", o.export_dir,
                 "Render every slide to DIR/slide-NNN.png (demo slides: a real run) and exit");
  cli.add_flag("--measure", o.measure, "Print every slide's layout and exit");
  cli.add_flag("--check", o.check,
               "Run every demo once, as R would, and report a demo whose flags or run fail, or whose at: is "
               "past its last step (no display needed); exit 2 on a problem");
  cli.add_option("--keys", o.keys, "Press these keys (e.g. \"Right Right End Home\")");
  add_common_flags(cli, o.common);
}

// The deck, checked against the lessons that are built (beside this program); false after one
// line per problem, each naming the deck's line ("DECK:3: ...": editors jump there).
bool open_deck(const App& app, Presenter& p, const std::string& path) {
  DeckOptions dopt;
  for (int l = 1; l <= 99; ++l) {
    char name[32];
    std::snprintf(name, sizeof name, "/lesson_%02d", l);
    struct stat st {};
    if (stat((app.bin_dir + name).c_str(), &st) == 0) dopt.lessons.push_back(l);
  }
  std::string error;
  if (!load_deck(path, dopt, p.deck, &error)) return fail(false, "ringlab-present: error: %s", error.c_str());
  for (const auto& e : p.deck.errors)  // "line 3: ..." -> "DECK:3: ..."
    std::fprintf(stderr, "ringlab-present: error: %s:%s\n", path.c_str(),
                 e.rfind("line ", 0) == 0 ? e.substr(5).c_str() : (" " + e).c_str());
  p.deck_path = path;
  return p.deck.errors.empty();
}

// Fonts follow the window: rebuilt (atlas and GL texture) when its height changes by > 5 %.
bool ensure_fonts(Presenter& p, int height, std::string* error) {
  if (p.fonts.height > 0 && std::abs(height - p.fonts.height) * 20 < p.fonts.height) return true;
  if (!build_slide_fonts(*ImGui::GetIO().Fonts, height, p.fonts, error)) return false;
  ImGui::GetIO().FontDefault = p.fonts.ui;
  upload_fonts();
  return true;
}

// --notes: a second screen (this slide's notes, the next slide's title, the clock) in a window
// of its own, sharing the slides' textures; keys typed into it go to the slides (the presenter
// looks at the notes, the room at the slides). The slides' window is current again after.
Window open_notes_window(const Window& slides, bool visible) {
  Window notes = open_window(900, 600, "ringlab — presenter notes", visible, slides.glfw, false);
  if (notes.glfw) {
    ImGui::StyleColorsDark();
    std::string error;  // read from a laptop screen at arm's length: one size, the body face
    const std::string font = find_font("DejaVu Sans", &error);
    if (!font.empty())
      ImGui::GetIO().Fonts->AddFontFromFileTTF(font.c_str(), 28, nullptr, slide_glyph_ranges());
    forward_keys(notes.glfw, slides);
  }
  make_current(slides);
  return notes;
}

// One frame of the notes window; `png`: its picture saved too (false: it could not be).
bool draw_notes_window(const Window& notes, const Window& slides, const Presenter& p,
                       const std::string& png = "") {
  begin_frame(notes);
  int w, h;
  glfwGetFramebufferSize(notes.glfw, &w, &h);
  draw_presenter_notes(p, static_cast<float>(w), static_cast<float>(h));
  ImGui::Render();
  const float clear[3] = {0.08f, 0.08f, 0.1f};
  draw_frame(w, h, clear);
  const bool saved = png.empty() || write_png(png, w, h);
  if (!png.empty() && saved) std::printf("notes screenshot: %s (%dx%d)\n", png.c_str(), w, h);
  if (!saved) std::fprintf(stderr, "ringlab-present: error: cannot write %s\n", png.c_str());
  glfwSwapBuffers(notes.glfw);
  if (glfwWindowShouldClose(notes.glfw)) glfwSetWindowShouldClose(slides.glfw, 1);
  make_current(slides);
  return saved;
}

// --export: slide `i`, settled on screen, to DIR/slide-NNN.png and its text page to .txt.
bool export_slide(const Presenter& p, int i, const std::string& dir, int w, int h) {
  std::printf("%s\n", layout_line(p, i).c_str());
  if (p.deck.slides[i].has_demo)  // a demo slide: what its pane's text measures, view by view
    for (const auto& m : measure_labels())
      std::printf(
          "view=%s slide=%d width=%d height=%d text_px=%.0f min_contrast=%.1f overlaps=%d labels=%d\n",
          m.view.c_str(), i + 1, w, h, m.text_px, m.min_contrast, m.overlaps, m.labels);
  char name[64];
  std::snprintf(name, sizeof name, "/slide-%03d", i + 1);
  if (!write_png(dir + name + ".png", w, h))
    return fail(false, "ringlab-present: error: cannot write %s%s.png", dir.c_str(), name);
  write_slide_text(dir + name + ".txt", p.deck.slides[i], i, static_cast<int>(p.deck.slides.size()));
  return true;
}
}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App cli{"ringlab-present — present a markdown deck; its demo slides run lessons live"};
  add_flags(cli, o);
  int rc = 0;
  if (!parse_flags(cli, argc, argv, "ringlab-present", o.common, &rc)) return rc;
  App app;
  app.background = palette().background;
  find_kit(app, argv[0]);
  Presenter p;
  if (!open_deck(app, p, o.deck)) return 2;
  if (o.check) return check_deck_demos(p.deck, o.deck, app.mpirun, app.bin_dir, 180) == 0 ? 0 : 2;
  const int n = static_cast<int>(p.deck.slides.size());
  if (o.slide < 1 || o.slide > n)
    return fail(2, "ringlab-present: error: --slide %d: the deck has slides 1..%d", o.slide, n);
  struct stat st {};
  if (!o.export_dir.empty() && (stat(o.export_dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)))
    return fail(2, "ringlab-present: error: --export %s: not a folder", o.export_dir.c_str());
  KeyScript keys;
  std::string error;
  // The demos' runs stream here (the launch panel's path: start_lesson gives them --viz), on a
  // free TCP port on loopback, so a presenter never collides with a visualizer already on this
  // user's socket; its token reaches the runs the launcher starts (children inherit it).
  Server server;
  Server::Options so;
  so.port = 0;
  if (!keys.parse(o.keys, &error) || !server.listen(so, &error))
    return fail(2, "ringlab-present: error: %s", error.c_str());
  setenv("RINGLAB_VIZ_TOKEN", server.token().c_str(), 1);
  app.server = &server;
  const bool offscreen = !o.screenshot.empty() || !o.export_dir.empty() || o.measure;
  p.show_views = !o.measure;
  p.show_clock = o.export_dir.empty();

  // --- setup --------------------------------------------------------------------------------
  if (!glfwInit()) return fail(3, "ringlab-present: error: no display (is $DISPLAY set? try xvfb-run -a)");
  Window window = open_window(o.common.width, o.common.height, "ringlab — " + p.deck.title, !offscreen);
  if (!window.glfw) {
    glfwTerminate();
    return fail(3, "ringlab-present: error: cannot open an OpenGL 3 window");
  }
  use_theme(current_theme());  // --theme: Dear ImGui's widgets in the same colours
  ImGui::GetStyle().WindowBorderSize = 0;
  p.image = image_texture;
  int saved[4] = {0, 0, o.common.width, o.common.height};
  if (o.fullscreen) toggle_fullscreen(window.glfw, saved);
  // The notes window; with --screenshot made too (hidden), so that its picture is saved beside.
  Window notes;
  if (o.notes && (!offscreen || !o.screenshot.empty())) {
    notes = open_notes_window(window, !offscreen);
    if (!notes.glfw)
      std::fprintf(stderr, "ringlab-present: note: cannot open the notes window; presenting without it\n");
  }

  // --- loop -----------------------------------------------------------------------------------
  go_to(app, p, o.slide - 1);
  int frame = 0, settled = 0;                    // frames drawn: all, and of this slide (export)
  int exported = o.export_dir.empty() ? -1 : 0;  // the slide being exported
  const auto start = Clock::now();
  auto last = start;
  while (!glfwWindowShouldClose(window.glfw)) {
    const auto t_frame = Clock::now();
    const double dt = std::chrono::duration<double>(t_frame - last).count();
    last = t_frame;
    glfwPollEvents();
    app.session.take(server.poll(0));
    app.launcher.poll();
    presenter_tick(app, p, offscreen ? 0 : dt);
    if (offscreen && p.demo_live && demo_finished(app, p))
      show_handout_step(app, p);  // a screenshot of a demo slide: the step its `at:` names
    int w, h;
    glfwGetFramebufferSize(window.glfw, &w, &h);
    if (!ensure_fonts(p, std::min(h, w * 9 / 16), &error)) {
      rc = fail(2, "ringlab-present: error: %s", error.c_str());
      break;
    }
    if (o.measure || (!offscreen && frame == 0)) lay_out_every_slide(p, w, h, o.measure);
    if (o.measure) break;
    if (exported >= 0 && settled == 0) {  // handout: each slide, its demo finished
      go_to(app, p, exported);
      finish_demo(app, p, 60);
    }
    const bool key_pressed = keys.press(frame);
    clear_labels();  // the labels of this frame only (--export measures a demo slide's)
    begin_frame(window);
    const int before = p.current;
    presenter_keys(app, p);
    if (key_pressed)
      std::printf("key %s: slide %d -> %d of %d%s\n", keys.names[keys.next++].c_str(), before + 1,
                  p.current + 1, n, p.black ? " (black)" : "");
    if (p.want_fullscreen_toggle && !offscreen) toggle_fullscreen(window.glfw, saved);
    p.want_fullscreen_toggle = false;
    draw_presenter(app, p, static_cast<float>(w), static_cast<float>(h));
    ImGui::Render();
    float clear[3];
    clear_colour(clear);
    draw_frame(w, h, clear);
    ++frame, ++settled;
    if (exported >= 0 && settled >= 3) {  // ImGui settles window sizes over the first frames
      if (!export_slide(p, exported, o.export_dir, w, h)) {
        rc = 1;
        break;
      }
      settled = 0;
      if (++exported == n) break;
      continue;
    }
    if (!o.screenshot.empty() && settled >= 3 && keys.done() &&
        (!o.common.quit_when_done || !p.demo_live || demo_finished(app, p))) {
      if (!write_png(o.screenshot, w, h)) {
        rc = fail(1, "ringlab-present: error: cannot write %s", o.screenshot.c_str());
      } else {
        std::printf("screenshot: %s (%dx%d)\n%s\n", o.screenshot.c_str(), w, h,
                    layout_line(p, p.current).c_str());
        if (!app.ring.ranks.empty())  // a demo's ring view: where it was drawn (png_check ring)
          std::printf("ring-rect %.1f %.1f %.1f %.1f ranks %zu em %.0f\n", app.ring_rect[0], app.ring_rect[1],
                      app.ring_rect[2], app.ring_rect[3], app.ring.ranks.size(), p.fonts.ui->FontSize);
        // --notes: the notes window beside it, as NAME-notes.png.
        const std::string notes_png = o.screenshot.substr(0, o.screenshot.rfind(".png")) + "-notes.png";
        if (notes.glfw && !draw_notes_window(notes, window, p, notes_png)) rc = 1;
      }
      break;
    }
    glfwSwapBuffers(window.glfw);
    if (notes.glfw) draw_notes_window(notes, window, p);
    if (o.common.quit_when_done && o.screenshot.empty() && keys.done() && !app.launcher.running() &&
        (keys.codes.empty() || frame > 8) && (!p.demo_live || demo_finished(app, p)))
      break;
    if (o.common.max_seconds > 0 &&
        std::chrono::duration<double>(Clock::now() - start).count() > o.common.max_seconds) {
      rc = fail(1, "ringlab-present: --max-seconds %.0f reached", o.common.max_seconds);
      break;
    }
    const double left = 16.0 - std::chrono::duration<double, std::milli>(Clock::now() - t_frame).count();
    if (left > 1) app.session.take(server.poll(static_cast<int>(left)));
  }

  // --- shutdown -------------------------------------------------------------------------------
  free_image_textures();  // made in the slides' context, which is current
  if (notes.glfw) close_window(notes);
  close_window(window);
  glfwTerminate();
  while (app.launcher.running()) {  // a demo still running: let it end, keep its output
    app.launcher.poll();
    app.session.take(server.poll(10));
  }
  app.session.take(server.poll(0));
  if (o.common.summary) {
    std::printf("demo run output:\n%s", app.launcher.output().c_str());
    std::printf("%s", app.session.summary().c_str());
  }
  return rc;
}
