// ringlab-viz --present DECK: the presenter's window shell. Setup, loop, shutdown as in
// main.cpp; what is drawn comes from presenter.cpp. This file owns what needs GL: the font
// texture (rebuilt when the window's height changes), PNG images as textures, full screen,
// the second window for notes, and the offscreen modes that tests and the handout use:
//   --slide N --screenshot out.png     one slide to a PNG
//   --export DIR                       every slide to DIR/slide-NNN.png (demo slides: a real run)
//   --measure                          every slide's layout (fits? scale) printed, no PNGs
//   --keys "Right Right End Home"      scripted key presses, one every other frame
#include "present_main.hpp"

#include "deck_check.hpp"
#include "screenshot.hpp"
#include "text_boxes.hpp"
#include "theme.hpp"

#include "fonts.hpp"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <stb_image.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <thread>

#include "presenter.hpp"

namespace ringlab::viz {
namespace {
using Clock = std::chrono::steady_clock;

struct Texture {
  GLuint id = 0;
  int w = 0, h = 0;
};
std::map<std::string, Texture> g_textures;

// Loads a PNG (or any format stb_image reads) into a GL texture, once per path.
bool image_info(const std::string& path, int* w, int* h, ImTextureID* tex) {
  auto it = g_textures.find(path);
  if (it == g_textures.end()) {
    Texture t;
    int ch = 0;
    unsigned char* px = stbi_load(path.c_str(), &t.w, &t.h, &ch, 4);
    if (px) {
      glGenTextures(1, &t.id);
      glBindTexture(GL_TEXTURE_2D, t.id);
      glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
      glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
      glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
      glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, t.w, t.h, 0, GL_RGBA, GL_UNSIGNED_BYTE, px);
      stbi_image_free(px);
    }
    it = g_textures.emplace(path, t).first;
  }
  if (!it->second.id) return false;
  *w = it->second.w, *h = it->second.h;
  *tex = reinterpret_cast<ImTextureID>(static_cast<std::uintptr_t>(it->second.id));
  return true;
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
      if (!line.empty() && line.size() + 1 + w.size() > 86) std::fprintf(f, "  %s\n", line.c_str()), line.clear();
      line += (line.empty() ? "" : " ") + w;
    }
    if (!line.empty()) std::fprintf(f, "  %s\n", line.c_str());
  }
  return std::fclose(f) == 0;
}

// Fonts follow the window: rebuilt (atlas and GL texture) when its height changes by > 5 %.
bool ensure_fonts(Presenter& p, int height, std::string* error) {
  if (p.fonts.height > 0 && std::abs(height - p.fonts.height) * 20 < p.fonts.height) return true;
  ImGuiIO& io = ImGui::GetIO();
  if (!build_slide_fonts(*io.Fonts, height, p.fonts, error)) return false;
  io.FontDefault = p.fonts.ui;
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  return ImGui_ImplOpenGL3_CreateFontsTexture();
}

// The names --keys takes: every key the presenter answers to (docs/presenting.md's table).
const std::map<std::string, int>& key_names() {
  static const std::map<std::string, int> keys = {
      {"Right", GLFW_KEY_RIGHT}, {"Left", GLFW_KEY_LEFT},         {"Down", GLFW_KEY_DOWN},
      {"Up", GLFW_KEY_UP},       {"Space", GLFW_KEY_SPACE},       {"PageDown", GLFW_KEY_PAGE_DOWN},
      {"PageUp", GLFW_KEY_PAGE_UP}, {"N", GLFW_KEY_N},           {"P", GLFW_KEY_P},
      {"Home", GLFW_KEY_HOME},   {"End", GLFW_KEY_END},           {"Enter", GLFW_KEY_ENTER},
      {"Escape", GLFW_KEY_ESCAPE}, {"B", GLFW_KEY_B},             {".", GLFW_KEY_PERIOD},
      {"F", GLFW_KEY_F},         {"G", GLFW_KEY_G},               {"R", GLFW_KEY_R},
      {"Backspace", GLFW_KEY_BACKSPACE}};
  return keys;
}

int key_code(const std::string& name) {
  if (name.size() == 1 && name[0] >= '0' && name[0] <= '9') return GLFW_KEY_0 + (name[0] - '0');
  auto it = key_names().find(name);
  return it == key_names().end() ? -1 : it->second;
}

void toggle_fullscreen(GLFWwindow* w, int* saved) {
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

void show_handout_step(App& app, const Presenter& p) {
  const Slide* s = p.slide();
  Run* run = app.session.current();
  if (!run && !app.session.runs().empty()) app.session.select(0), run = app.session.current();
  if (!s || !run) return;
  const int frames = static_cast<int>(run->timeline.frames().size());
  app.playback.pos = (s->demo.at >= 0 ? std::min(s->demo.at, frames - 1) : frames / 2) + 0.5;
}

// Demo slides in the handout: run the lesson for real, wait for it to end, show step `at`.
void finish_demo_for_export(App& app, Presenter& p, double max_s) {
  const Slide* s = p.slide();
  if (!s || !s->has_demo) return;
  if (s->demo.lesson > 0) {
    if (!run_demo(app, p)) {
      std::fprintf(stderr, "ringlab-viz: slide %d: demo did not start: %s\n", p.current + 1,
                   app.form.error.c_str());
      return;
    }
    const auto t0 = Clock::now();
    while (!demo_finished(app, p) && std::chrono::duration<double>(Clock::now() - t0).count() < max_s) {
      if (app.server) app.session.take(app.server->poll(20));
      app.launcher.poll();
    }
    app.launcher.poll();
    if (app.server) app.session.take(app.server->poll(0));
  }
  show_handout_step(app, p);
  p.demo_live = true;  // the output pane shows the run's lines
}

// Keys typed into the notes window go to the slides (the presenter looks at the notes screen).
ImGuiContext* g_main_ctx = nullptr;
GLFWwindow* g_main_window = nullptr;
void notes_key(GLFWwindow*, int key, int scancode, int action, int mods) {
  ImGuiContext* was = ImGui::GetCurrentContext();
  ImGui::SetCurrentContext(g_main_ctx);
  ImGui_ImplGlfw_KeyCallback(g_main_window, key, scancode, action, mods);
  ImGui::SetCurrentContext(was);
}
void notes_char(GLFWwindow*, unsigned int c) {
  ImGuiContext* was = ImGui::GetCurrentContext();
  ImGui::SetCurrentContext(g_main_ctx);
  ImGui_ImplGlfw_CharCallback(g_main_window, c);
  ImGui::SetCurrentContext(was);
}

std::string slide_line(const Presenter& p, int i) {
  const SlideLayout& L = p.last;
  char buf[512];
  std::snprintf(
      buf, sizeof buf,
      "slide %d/%zu fits %d scale %.2f extent %.0f %.0f %.0f %.0f area %.0f %.0f %.0f %.0f title %.0f %.0f "
      "%.0f %.0f demo %d | %s",
      i + 1, p.deck.slides.size(), L.fits ? 1 : 0, L.scale, L.extent[0], L.extent[1], L.extent[2],
      L.extent[3], L.area[0], L.area[1], L.area[2], L.area[3], L.title[0], L.title[1], L.title[2], L.title[3],
      !p.deck.slides[i].has_demo         ? 0
      : p.deck.slides[i].demo.lesson > 0 ? p.deck.slides[i].demo.lesson
                                         : -1,
      p.deck.slides[i].title().c_str());
  return buf;
}
}  // namespace

int run_presenter(const PresentOptions& o, App& app) {
  Presenter p;
  p.deck_path = o.deck;
  DeckOptions dopt;
  for (int l = 1; l <= 99; ++l) {  // the lessons that are built, beside this binary
    char name[32];
    std::snprintf(name, sizeof name, "/lesson_%02d", l);
    struct stat st {};
    if (stat((app.bin_dir + name).c_str(), &st) == 0) dopt.lessons.push_back(l);
  }
  std::string error;
  if (!load_deck(o.deck, dopt, p.deck, &error)) {
    std::fprintf(stderr, "ringlab-viz: error: %s\n", error.c_str());
    return 2;
  }
  if (!p.deck.errors.empty()) {          // one line per problem, then no window
    for (const auto& e : p.deck.errors)  // "line 3: ..." -> "DECK:3: ..." (editors jump there)
      std::fprintf(stderr, "ringlab-viz: error: %s:%s\n", o.deck.c_str(),
                   e.rfind("line ", 0) == 0 ? e.substr(5).c_str() : (" " + e).c_str());
    return 2;
  }
  if (o.check) return check_deck_demos(p.deck, o.deck, app.mpirun, app.bin_dir, 180) == 0 ? 0 : 2;
  const int n = static_cast<int>(p.deck.slides.size());
  if (o.slide < 1 || o.slide > n) {
    std::fprintf(stderr, "ringlab-viz: error: --slide %d: the deck has slides 1..%d\n", o.slide, n);
    return 2;
  }
  if (!o.export_dir.empty()) {
    struct stat st {};
    if (stat(o.export_dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
      std::fprintf(stderr, "ringlab-viz: error: --export %s: not a folder\n", o.export_dir.c_str());
      return 2;
    }
  }
  std::vector<int> script;
  std::vector<std::string> script_names;
  {
    std::istringstream words(o.keys);
    for (std::string w; words >> w;) {
      const int k = key_code(w);
      if (k < 0) {
        std::string valid;
        for (const auto& [name, code] : key_names()) valid += " " + name;
        std::fprintf(stderr, "ringlab-viz: error: --keys: unknown key '%s' (keys:%s 0-9)\n", w.c_str(), valid.c_str());
        return 2;
      }
      script.push_back(k);
      script_names.push_back(w);
    }
  }
  // The demos' runs stream here (the launch panel's path: start_lesson gives them --viz).
  Server server;
  Server::Options so;
  so.port = 0;
  if (!server.listen(so, &error)) {
    std::fprintf(stderr, "ringlab-viz: error: %s\n", error.c_str());
    return 2;
  }
  // A free TCP port on loopback, so a presenter never collides with a visualizer already on
  // this user's socket; its token reaches the demo runs the launcher starts (children inherit it).
  setenv("RINGLAB_VIZ_TOKEN", server.token().c_str(), 1);
  app.server = &server;
  const bool offscreen = !o.screenshot.empty() || !o.export_dir.empty() || o.measure;
  p.show_views = !o.measure;
  p.show_clock = o.export_dir.empty();

  // --- setup --------------------------------------------------------------------------------
  if (!glfwInit()) {
    std::fprintf(stderr, "ringlab-viz: error: no display (is $DISPLAY set? try xvfb-run -a)\n");
    return 3;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  if (offscreen) glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
  const std::string title = "ringlab — " + p.deck.title;
  GLFWwindow* window = glfwCreateWindow(o.width, o.height, title.c_str(), nullptr, nullptr);
  if (!window) {
    std::fprintf(stderr, "ringlab-viz: error: cannot open an OpenGL 3 window\n");
    glfwTerminate();
    return 3;
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(0);
  IMGUI_CHECKVERSION();
  ImGuiContext* main_ctx = ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;
  use_theme(current_theme());  // --theme: Dear ImGui's widgets in the same colours
  ImGui::GetStyle().WindowBorderSize = 0;
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  ImGui_ImplOpenGL3_Init("#version 130");
  p.image = image_info;
  int saved[4] = {0, 0, o.width, o.height};
  if (o.fullscreen) toggle_fullscreen(window, saved);

  // The notes window: its own ImGui context (no input callbacks: keys go to the slides).
  GLFWwindow* notes = nullptr;
  ImGuiContext* notes_ctx = nullptr;
  // With --screenshot it is made too (hidden), so that its picture is saved beside the slide's.
  if (o.notes && (!offscreen || !o.screenshot.empty())) {
    glfwWindowHint(GLFW_VISIBLE, offscreen ? GLFW_FALSE : GLFW_TRUE);
    notes = glfwCreateWindow(900, 600, "ringlab — presenter notes", nullptr, window);
    if (notes) {
      glfwMakeContextCurrent(notes);
      notes_ctx = ImGui::CreateContext();
      ImGui::SetCurrentContext(notes_ctx);
      ImGui::GetIO().IniFilename = nullptr;
      ImGui::StyleColorsDark();
      // The notes are read from a laptop screen at arm's length: one size, the body face.
      std::string font_error;
      const std::string font = find_font("DejaVu Sans", &font_error);
      if (!font.empty()) ImGui::GetIO().Fonts->AddFontFromFileTTF(font.c_str(), 28, nullptr, slide_glyph_ranges());
      ImGui_ImplGlfw_InitForOpenGL(notes, false);
      g_main_ctx = main_ctx;
      g_main_window = window;
      glfwSetKeyCallback(notes, notes_key);
      glfwSetCharCallback(notes, notes_char);
      ImGui_ImplOpenGL3_Init("#version 130");
      ImGui::SetCurrentContext(main_ctx);
      glfwMakeContextCurrent(window);
    } else {
      std::fprintf(stderr, "ringlab-viz: note: cannot open the notes window; presenting without it\n");
    }
  }

  // The notes window, drawn with its own context; `save_to`: its picture as a PNG too.
  auto draw_notes_window = [&](const std::string& save_to = "") {
    glfwMakeContextCurrent(notes);
    ImGui::SetCurrentContext(notes_ctx);
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    int nw, nh;
    glfwGetFramebufferSize(notes, &nw, &nh);
    draw_presenter_notes(p, static_cast<float>(nw), static_cast<float>(nh));
    ImGui::Render();
    glViewport(0, 0, nw, nh);
    glClearColor(0.08f, 0.08f, 0.1f, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    bool saved = true;
    if (!save_to.empty()) {
      glFinish();
      saved = write_png(save_to, nw, nh);
      if (saved) std::printf("notes screenshot: %s (%dx%d)\n", save_to.c_str(), nw, nh);
      else std::fprintf(stderr, "ringlab-viz: error: cannot write %s\n", save_to.c_str());
    }
    glfwSwapBuffers(notes);
    if (glfwWindowShouldClose(notes)) glfwSetWindowShouldClose(window, 1);
    ImGui::SetCurrentContext(main_ctx);
    glfwMakeContextCurrent(window);
    return saved;
  };

  // --- loop -----------------------------------------------------------------------------------
  go_to(app, p, o.slide - 1);
  int rc = 0, frame = 0, settled = 0;
  std::size_t next_key = 0;
  int exported = o.export_dir.empty() ? -1 : 0;  // the slide being exported
  auto last = Clock::now();
  const auto start = Clock::now();
  bool demo_ready_for_export = false, warned = false;
  while (!glfwWindowShouldClose(window)) {
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
    glfwGetFramebufferSize(window, &w, &h);
    if (!ensure_fonts(p, std::min(h, w * 9 / 16), &error)) {
      std::fprintf(stderr, "ringlab-viz: error: %s\n", error.c_str());
      rc = 2;
      break;
    }
    if (!offscreen && !warned) {  // for the deck's author: slides that hold too much
      warned = true;
      for (int i = 0; i < n; ++i) {
        const SlideLayout L =
            layout_slide(p.deck.slides[i], p.fonts, static_cast<float>(w), static_cast<float>(h), p.image);
        if (!L.fits || L.scale < 0.8f)
          std::fprintf(stderr, "ringlab-viz: note: slide %d (%s) holds too much for %dx%d: %s\n", i + 1,
                       p.deck.slides[i].title().c_str(), w, h,
                       L.fits ? "shrunk below 80 %" : "it does not fit");
      }
    }
    if (o.measure) {  // every slide's layout, computed as drawing would, nothing drawn
      for (int i = 0; i < n; ++i) {
        p.current = i;
        p.last =
            layout_slide(p.deck.slides[i], p.fonts, static_cast<float>(w), static_cast<float>(h), p.image);
        std::printf("%s\n", slide_line(p, i).c_str());
      }
      break;
    }
    if (exported >= 0 && !demo_ready_for_export) {  // handout: each slide, its demo finished
      go_to(app, p, exported);
      finish_demo_for_export(app, p, 60);
      demo_ready_for_export = true;
      settled = 0;
    }
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGuiIO& io = ImGui::GetIO();
    // A scripted key (--keys): down for one frame, up the next, as a real press would be.
    if (next_key < script.size() && frame % 2 == 0 && frame >= 4) {
      io.KeysDown[script[next_key]] = true;
      const std::string& name = script_names[next_key];
      if (name.size() == 1 && name[0] >= '0' && name[0] <= '9') io.AddInputCharacter(name[0]);
    } else {
      for (int k : script) io.KeysDown[k] = false;
    }
    clear_labels();  // the labels of this frame only (--export measures a demo slide's)
    ImGui::NewFrame();
    const int before = p.current;
    presenter_keys(app, p);
    if (next_key < script.size() && frame % 2 == 0 && frame >= 4) {
      std::printf("key %s: slide %d -> %d of %d%s\n", script_names[next_key].c_str(), before + 1,
                  p.current + 1, n, p.black ? " (black)" : "");
      ++next_key;
    }
    if (p.want_fullscreen_toggle) {
      p.want_fullscreen_toggle = false;
      if (!offscreen) toggle_fullscreen(window, saved);
    }
    draw_presenter(app, p, static_cast<float>(w), static_cast<float>(h));
    ImGui::Render();
    glViewport(0, 0, w, h);
    float clear[3];
    clear_colour(clear);
    glClearColor(clear[0], clear[1], clear[2], 1);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    ++frame;
    ++settled;
    if (exported >= 0 && settled >= 3) {  // ImGui settles window sizes over the first frames
      std::printf("%s\n", slide_line(p, exported).c_str());
      // A demo slide: what its pane's text measures (text_boxes.hpp), view by view.
      if (p.deck.slides[exported].has_demo)
        for (const auto& m : measure_labels())
          std::printf("view=%s slide=%d width=%d height=%d text_px=%.0f min_contrast=%.1f overlaps=%d labels=%d\n",
                      m.view.c_str(), exported + 1, w, h, m.text_px, m.min_contrast, m.overlaps, m.labels);
      if (!o.export_dir.empty()) {
        glFinish();
        char name[64];
        std::snprintf(name, sizeof name, "/slide-%03d.png", exported + 1);
        if (!write_png(o.export_dir + name, w, h)) {
          std::fprintf(stderr, "ringlab-viz: error: cannot write %s%s\n", o.export_dir.c_str(), name);
          rc = 1;
          break;
        }
        std::snprintf(name, sizeof name, "/slide-%03d.txt", exported + 1);
        write_slide_text(o.export_dir + name, p.deck.slides[exported], exported, n);
      }
      demo_ready_for_export = false;
      if (++exported == n) break;
      continue;
    }
    if (!o.screenshot.empty() && settled >= 3 && next_key == script.size() &&
        (!o.quit_when_done || !p.demo_live || demo_finished(app, p))) {
      glFinish();
      if (!write_png(o.screenshot, w, h)) {
        std::fprintf(stderr, "ringlab-viz: error: cannot write %s\n", o.screenshot.c_str());
        rc = 1;
      } else {
        std::printf("screenshot: %s (%dx%d)\n%s\n", o.screenshot.c_str(), w, h,
                    slide_line(p, p.current).c_str());
        if (!app.ring.ranks.empty())  // a demo's ring view: where it was drawn (viz_png_check)
          std::printf("ring-rect %.1f %.1f %.1f %.1f ranks %zu em %.0f\n", app.ring_rect[0], app.ring_rect[1],
                      app.ring_rect[2], app.ring_rect[3], app.ring.ranks.size(), p.fonts.ui->FontSize);
        // --notes: the notes window beside it, as NAME-notes.png.
        const std::size_t dot = o.screenshot.rfind(".png");
        if (notes && !draw_notes_window(o.screenshot.substr(0, dot) + "-notes.png")) rc = 1;
      }
      break;
    }
    glfwSwapBuffers(window);
    if (notes) draw_notes_window();
    if (o.quit_when_done && o.screenshot.empty() && next_key == script.size() && !app.launcher.running() &&
        (script.empty() || frame > 8) && (!p.demo_live || demo_finished(app, p)))
      break;
    if (o.max_seconds > 0 && std::chrono::duration<double>(Clock::now() - start).count() > o.max_seconds) {
      std::fprintf(stderr, "ringlab-viz: --max-seconds %.0f reached\n", o.max_seconds);
      rc = rc ? rc : 1;
      break;
    }
    const double left = 16.0 - std::chrono::duration<double, std::milli>(Clock::now() - t_frame).count();
    if (left > 1) app.session.take(server.poll(static_cast<int>(left)));
  }

  // --- shutdown -------------------------------------------------------------------------------
  if (notes) {
    glfwMakeContextCurrent(notes);
    ImGui::SetCurrentContext(notes_ctx);
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext(notes_ctx);
    glfwMakeContextCurrent(window);
    ImGui::SetCurrentContext(main_ctx);
  }
  for (auto& [path, t] : g_textures)
    if (t.id) glDeleteTextures(1, &t.id);
  g_textures.clear();
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext(main_ctx);
  if (notes) glfwDestroyWindow(notes);
  glfwDestroyWindow(window);
  glfwTerminate();
  while (app.launcher.running()) {  // a demo still running: let it end, keep its output
    app.launcher.poll();
    app.session.take(server.poll(10));
  }
  app.session.take(server.poll(0));
  if (o.summary) {
    std::printf("demo run output:\n%s", app.launcher.output().c_str());
    std::printf("%s", app.session.summary().c_str());
  }
  return rc;
}

}  // namespace ringlab::viz
