// ringlab-present — a markdown deck full-window (the workshop's: slides/ringlab.md), its demo
// slides running a lesson live in the visualizer's views. Setup, loop, shutdown, in that order,
// as in viz_main.cpp; what a slide draws comes from presenter.cpp. Keys: docs/presenting.md.
//   ringlab-present DECK [--notes] [--fullscreen] [--slide N]    present
//   ringlab-present DECK --slide N --screenshot out.png           one slide to a PNG
//   ringlab-present DECK --export DIR       every slide to DIR/slide-NNN.png (demo slides: a real run)
//   ringlab-present DECK --measure          every slide's layout (fits? scale) printed, no PNGs
//   ringlab-present DECK --check            every demo run once, as R would (no display)
//   ringlab-present DECK --keys "Right Right End Home"    scripted key presses, one every other frame
#include <imgui_impl_glfw.h>
#include <stb_image.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>

#include "fonts.hpp"
#include "presenter.hpp"
#include "shell.hpp"
#include "text_boxes.hpp"
#include "theme.hpp"

using namespace ringlab::viz;

namespace {
struct Options {
  CommonFlags common;
  std::string deck, screenshot, export_dir, keys;
  bool notes = false, fullscreen = false, measure = false, check = false;
  int slide = 1;  // 1-based
};

// --keys "Right Right End Home": presses a test scripts, by the names of the key table in
// docs/presenting.md (and 0-9), each down for one frame and up the next, as a real press is.
struct KeyScript {
  std::vector<std::string> names;
  std::vector<int> codes;  // GLFW's, which Dear ImGui 1.86's GLFW backend puts in io.KeysDown
  std::size_t next = 0;    // the next to press

  bool parse(const std::string& keys, std::string* error) {
    // clang-format off
    static const std::map<std::string, int> known = {
        {"Right", GLFW_KEY_RIGHT},    {"Left", GLFW_KEY_LEFT},   {"Down", GLFW_KEY_DOWN},
        {"Up", GLFW_KEY_UP},          {"Space", GLFW_KEY_SPACE}, {"PageDown", GLFW_KEY_PAGE_DOWN},
        {"PageUp", GLFW_KEY_PAGE_UP}, {"N", GLFW_KEY_N},         {"P", GLFW_KEY_P},
        {"Home", GLFW_KEY_HOME},      {"End", GLFW_KEY_END},     {"Enter", GLFW_KEY_ENTER},
        {"Escape", GLFW_KEY_ESCAPE},  {"B", GLFW_KEY_B},         {".", GLFW_KEY_PERIOD},
        {"F", GLFW_KEY_F},            {"G", GLFW_KEY_G},         {"R", GLFW_KEY_R},
        {"Backspace", GLFW_KEY_BACKSPACE}};
    // clang-format on
    std::istringstream words(keys);
    for (std::string w; words >> w;) {
      const auto it = known.find(w);
      const bool digit = w.size() == 1 && w[0] >= '0' && w[0] <= '9';
      if (!digit && it == known.end()) {
        *error = "--keys: unknown key '" + w + "' (keys:";
        for (const auto& [name, code] : known) *error += " " + name;
        *error += " 0-9)";
        return false;
      }
      names.push_back(w);
      codes.push_back(digit ? GLFW_KEY_0 + (w[0] - '0') : it->second);
    }
    return true;
  }
  bool done() const { return next == codes.size(); }
  // Before ImGui's frame `frame`: true when it presses names[next] (the caller then moves on).
  bool press(int frame) {
    ImGuiIO& io = ImGui::GetIO();
    for (int k : codes) io.KeysDown[k] = false;
    if (done() || frame % 2 != 0 || frame < 4) return false;
    io.KeysDown[codes[next]] = true;
    if (codes[next] >= GLFW_KEY_0 && codes[next] <= GLFW_KEY_9)
      io.AddInputCharacter(names[next][0]);  // G 1 2 Enter
    return true;
  }
};

// Pictures on slides: each file (PNG, or any format stb_image reads) loaded once into a GL
// texture of the slides' context (the notes window shares it). False: it cannot be read.
struct Texture {
  GLuint id = 0;
  int w = 0, h = 0;
};
std::map<std::string, Texture> g_textures;
bool image_texture(const std::string& path, int* w, int* h, ImTextureID* tex) {
  auto [it, fresh] = g_textures.try_emplace(path);
  Texture& t = it->second;
  if (fresh) {
    int ch = 0;
    if (unsigned char* px = stbi_load(path.c_str(), &t.w, &t.h, &ch, 4)) {
      glGenTextures(1, &t.id);
      glBindTexture(GL_TEXTURE_2D, t.id);
      glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
      glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
      glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
      glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, t.w, t.h, 0, GL_RGBA, GL_UNSIGNED_BYTE, px);
      stbi_image_free(px);
    }
  }
  if (!t.id) return false;
  *w = t.w, *h = t.h;
  *tex = reinterpret_cast<ImTextureID>(static_cast<std::uintptr_t>(t.id));
  return true;
}

// F: full screen on the primary monitor, and back to where the window was (`saved`: x y w h).
void toggle_fullscreen(GLFWwindow* w, int saved[4]) {
  if (glfwGetWindowMonitor(w)) {
    glfwSetWindowMonitor(w, nullptr, saved[0], saved[1], saved[2], saved[3], 0);
    return;
  }
  glfwGetWindowPos(w, &saved[0], &saved[1]);
  glfwGetWindowSize(w, &saved[2], &saved[3]);
  GLFWmonitor* m = glfwGetPrimaryMonitor();
  if (!m) return;
  const GLFWvidmode* mode = glfwGetVideoMode(m);
  glfwSetWindowMonitor(w, m, 0, 0, mode->width, mode->height, mode->refreshRate);
}

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
    if (std::filesystem::exists(app.bin_dir + name)) dopt.lessons.push_back(l);
  }
  std::string error;
  if (!load_deck(path, dopt, p.deck, &error)) return fail(false, "ringlab-present: error: %s", error.c_str());
  for (const auto& e : p.deck.errors)  // "line 3: ..." -> "DECK:3: ..."
    std::fprintf(stderr, "ringlab-present: error: %s:%s\n", path.c_str(),
                 e.rfind("line ", 0) == 0 ? e.substr(5).c_str() : (" " + e).c_str());
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
// of its own, sharing the slides' textures. Keys typed into it go to the slides (the presenter
// looks at the notes, the room at the slides): ImGui's GLFW callbacks, in the slides' context.
Window g_slides;  // the slides: where the notes window sends its keys, current again after it drew
// A GLFW input callback of the notes window: ImGui's `callback` (key or char), on the slides.
template <auto callback, class... Args> void to_slides(GLFWwindow*, Args... args) {
  ImGuiContext* was = ImGui::GetCurrentContext();
  ImGui::SetCurrentContext(g_slides.imgui);
  callback(g_slides.glfw, args...);
  ImGui::SetCurrentContext(was);
}
Window open_notes_window(const Window& slides, bool visible) {
  Window notes = open_window(900, 600, "ringlab — presenter notes", visible, slides.glfw, false);
  if (notes.glfw) {
    ImGui::StyleColorsDark();
    std::string error;  // read from a laptop screen at arm's length: one size, the body face
    const std::string font = find_font("DejaVu Sans", &error);
    if (!font.empty())
      ImGui::GetIO().Fonts->AddFontFromFileTTF(font.c_str(), 28, nullptr, slide_glyph_ranges());
    g_slides = slides;
    glfwSetKeyCallback(notes.glfw, to_slides<ImGui_ImplGlfw_KeyCallback, int, int, int, int>);
    glfwSetCharCallback(notes.glfw, to_slides<ImGui_ImplGlfw_CharCallback, unsigned int>);
  }
  make_current(slides);
  return notes;
}

// One frame of the notes window; `png`: its picture saved too (false: it could not be).
bool draw_notes_window(const Window& notes, const Presenter& p, const std::string& png = "") {
  begin_frame(notes);
  int w, h;
  glfwGetFramebufferSize(notes.glfw, &w, &h);
  draw_presenter_notes(p, static_cast<float>(w), static_cast<float>(h));
  ImGui::Render();
  draw_frame(w, h, IM_COL32(20, 20, 26, 255));
  const bool saved = png.empty() || write_png(png, w, h);
  if (!png.empty() && saved) std::printf("notes screenshot: %s (%dx%d)\n", png.c_str(), w, h);
  if (!saved) std::fprintf(stderr, "ringlab-present: error: cannot write %s\n", png.c_str());
  glfwSwapBuffers(notes.glfw);
  if (glfwWindowShouldClose(notes.glfw)) glfwSetWindowShouldClose(g_slides.glfw, 1);
  make_current(g_slides);
  return saved;
}

// --- with no one watching: --measure, --screenshot and the handout (--export, ./ringlab slides) ---
// Slide `i` as p.last laid it out, one line: "slide 3/30 fits 1 scale 1.00 extent ... | title".
std::string layout_line(const Presenter& p, int i) {
  const SlideLayout& L = p.last;
  const Slide& s = p.deck.slides[i];
  const int demo = s.has_demo ? (s.demo.lesson > 0 ? s.demo.lesson : -1) : 0;  // -1: a replay
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "slide %d/%zu fits %d scale %.2f extent %.0f %.0f %.0f %.0f area %.0f %.0f %.0f %.0f title "
                "%.0f %.0f %.0f %.0f demo %d | %s",
                i + 1, p.deck.slides.size(), L.fits ? 1 : 0, L.scale, L.extent[0], L.extent[1], L.extent[2],
                L.extent[3], L.area[0], L.area[1], L.area[2], L.area[3], L.title[0], L.title[1], L.title[2],
                L.title[3], demo, s.title().c_str());
  return buf;
}

// Every slide laid out for a `w` x `h` window, as drawing would, nothing drawn: with `print`, a
// layout_line each (--measure); else, for the deck's author, a note per slide that holds too much.
void lay_out_every_slide(Presenter& p, int w, int h, bool print) {
  for (int i = 0; i < static_cast<int>(p.deck.slides.size()); ++i) {
    p.last = layout_slide(p.deck.slides[i], p.fonts, static_cast<float>(w), static_cast<float>(h), p.image);
    if (print) std::printf("%s\n", layout_line(p, i).c_str());
    else if (!p.last.fits || p.last.scale < 0.8f)
      std::fprintf(stderr, "ringlab-present: note: slide %d (%s) holds too much for %dx%d: %s\n", i + 1,
                   p.deck.slides[i].title().c_str(), w, h,
                   p.last.fits ? "shrunk below 80 %" : "it does not fit");
  }
}

// The handout's text page for a slide (slide-NNN.txt beside its picture): its title, what can
// be typed from it, and its notes, wrapped for a page. Nothing to write: no file, false.
bool write_slide_text(const std::string& path, const Slide& slide, int index, int count) {
  const std::vector<std::string> commands = slide.commands();
  if (commands.empty() && slide.notes.empty()) return false;
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) return false;
  std::fprintf(f, "Slide %d of %d: %s\n", index + 1, count, slide.title().c_str());
  if (!commands.empty()) {
    std::fprintf(f, "\nCommands:\n");
    for (const auto& c : commands) std::fprintf(f, "  %s%s\n", c.rfind("$ ", 0) == 0 ? "" : "$ ", c.c_str());
  }
  if (!slide.notes.empty()) {
    std::fprintf(f, "\nNotes:\n");
    std::istringstream words(slide.notes);
    std::string line;
    for (std::string w; words >> w;) {
      if (!line.empty() && line.size() + 1 + w.size() > 86)
        std::fprintf(f, "  %s\n", line.c_str()), line.clear();
      line += (line.empty() ? "" : " ") + w;
    }
    if (!line.empty()) std::fprintf(f, "  %s\n", line.c_str());
  }
  return std::fclose(f) == 0;
}

// A demo slide in the handout: its lesson run for real, up to `max_s` seconds, then that step.
void finish_demo(App& app, Presenter& p, double max_s) {
  const Slide* s = p.slide();
  if (!s || !s->has_demo) return;
  if (s->demo.lesson > 0) {
    if (!run_demo(app, p)) {
      std::fprintf(stderr, "ringlab-present: slide %d: demo did not start: %s\n", p.current + 1,
                   app.form.error.c_str());
      return;
    }
    const auto t0 = Clock::now();
    while (!demo_finished(app, p) && ms_since(t0) < max_s * 1000) {
      if (app.server) app.session.take(app.server->poll(20));
      app.launcher.poll();
    }
    app.launcher.poll();
    if (app.server) app.session.take(app.server->poll(0));
  }
  show_demo_step(app, p);
  p.demo_live = true;  // the output pane shows the run's lines
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

// --screenshot: the slide, the line tests read, where a demo drew its ring (png_check ring),
// and with --notes the notes window beside it, as NAME-notes.png.
bool save_screenshot(const std::string& png, const App& app, const Presenter& p, int w, int h,
                     const Window& notes) {
  if (!write_png(png, w, h)) return fail(false, "ringlab-present: error: cannot write %s", png.c_str());
  std::printf("screenshot: %s (%dx%d)\n%s\n", png.c_str(), w, h, layout_line(p, p.current).c_str());
  if (!app.ring.ranks.empty())
    std::printf("ring-rect %.1f %.1f %.1f %.1f ranks %zu em %.0f\n", app.ring_rect[0], app.ring_rect[1],
                app.ring_rect[2], app.ring_rect[3], app.ring.ranks.size(), p.fonts.ui->FontSize);
  return !notes.glfw || draw_notes_window(notes, p, png.substr(0, png.rfind(".png")) + "-notes.png");
}
}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App cli{"ringlab-present — present a markdown deck; its demo slides run lessons live"};
  add_flags(cli, o);
  const int parsed = parse_flags(cli, argc, argv, "ringlab-present", o.common);  // -1: go on
  if (parsed >= 0) return parsed;
  std::signal(SIGPIPE, SIG_IGN);  // a reader that stops early (| grep -m1) or a closed socket: no crash
  App app;
  find_kit(app, argv[0]);
  Presenter p;
  if (!open_deck(app, p, o.deck)) return 2;
  if (o.check) return check_deck_demos(p.deck, o.deck, app.mpirun, app.bin_dir, 180) == 0 ? 0 : 2;
  const int n = static_cast<int>(p.deck.slides.size());
  if (o.slide < 1 || o.slide > n)
    return fail(2, "ringlab-present: error: --slide %d: the deck has slides 1..%d", o.slide, n);
  if (!o.export_dir.empty() && !std::filesystem::is_directory(o.export_dir))
    return fail(2, "ringlab-present: error: --export %s: not a folder", o.export_dir.c_str());
  KeyScript keys;
  std::string error;
  // The demos' runs stream here (the launch panel's path: start_lesson gives them --viz), on a
  // free TCP port on loopback, so a presenter never collides with a visualizer already on this
  // user's socket; its token reaches the runs the launcher starts (children inherit it).
  Server server;
  if (!keys.parse(o.keys, &error) || !server.listen({.port = 0}, &error))
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
  int rc = 0, frame = 0, settled = 0;            // frames drawn: all, and of this slide (--export)
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
      show_demo_step(app, p);  // a screenshot of a demo slide: the step its `at:` names
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
    draw_frame(w, h, palette().background);
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
      rc = save_screenshot(o.screenshot, app, p, w, h, notes) ? 0 : 1;
      break;
    }
    glfwSwapBuffers(window.glfw);
    if (notes.glfw) draw_notes_window(notes, p);
    if (o.common.quit_when_done && o.screenshot.empty() && keys.done() && !app.launcher.running() &&
        (keys.codes.empty() || frame > 8) && (!p.demo_live || demo_finished(app, p)))
      break;
    if (o.common.max_seconds > 0 && ms_since(start) > o.common.max_seconds * 1000) {
      rc = fail(1, "ringlab-present: --max-seconds %.0f reached", o.common.max_seconds);
      break;
    }
    const double left = 16.0 - ms_since(t_frame);
    if (left > 1) app.session.take(server.poll(static_cast<int>(left)));
  }

  // --- shutdown -------------------------------------------------------------------------------
  for (auto& [path, t] : g_textures) glDeleteTextures(1, &t.id);  // the slides' context is current
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
