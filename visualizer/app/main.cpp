// ringlab-viz — the visualizer window: a real run's chunks moving around the ring, every
// rank's buffer, loss per worker, bytes per rank, the pipeline. Setup, loop, shutdown, in that
// order, as Dear ImGui's example_glfw_opengl3 does; everything it draws comes from
// visualizer/core (no window there) through views.cpp.
//   ringlab-viz TRACE...                        replay recorded traces
//   ringlab-viz --listen                        live: lessons run with --viz (this user's socket)
//   ringlab-viz --listen --port 7777            live over TCP: lessons need the token it prints
//   ringlab-viz --replay TRACE --at 3 --screenshot out.png    render one frame and exit
//   ringlab-viz --present slides/ringlab.md [--notes]         presenter mode (present_main.cpp)
#include <GLFW/glfw3.h>
#include <arpa/inet.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <mutex>
#include <thread>

#include "fonts.hpp"
#include "present_main.hpp"
#include "screenshot.hpp"
#include "ringlab/trace/viz_stream.hpp"
#include "text_boxes.hpp"
#include "theme.hpp"
#include "views.hpp"

using namespace ringlab::viz;
using Clock = std::chrono::steady_clock;

namespace {
std::atomic<bool> g_stop{false};
App* g_app = nullptr;  // for GLFW's drop callback
void on_drop(GLFWwindow*, int count, const char** paths) {
  for (int i = 0; i < count; ++i) g_app->session.open_file(paths[i]);
}
void on_signal(int) { g_stop = true; }

struct Options {
  std::vector<std::string> traces;
  std::string replay, screenshot, address = "127.0.0.1", tab, socket, token;
  std::size_t max_events = Limits{}.max_events;
  bool list_steps = false;
  bool listen = false, headless = false, summary = false, quit_when_done = false;
  int launch = 0, launch_np = 4;
  std::string launch_flags = "--schedule --count 8 --type int32";
  int port = 7777, width = 1280, height = 720, bench_frames = 0, bench_latency = 0;
  double at = -1, max_seconds = 0;
  float font_scale = 1;
  std::string size;  // --size WxH (for --measure; sets width and height)
  std::string theme = "dark";
  PresentOptions present;
};

// --measure (no --present): the window's views drawn by Dear ImGui alone, no display, as the
// unit tests draw them; then, view by view, what the back of the room gets: the text height,
// the lowest contrast of a label on its background, and how many labels overlap. Each chart
// tab is drawn in turn, since only one shows at a time.
int measure_views(App& app, const Options& o) {
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  std::string error;
  if (!use_viewer_font(static_cast<float>(o.height), app.font_scale, &error)) {
    std::fprintf(stderr, "ringlab-viz: error: %s\n", error.c_str());
    return 2;
  }
  unsigned char* pixels;
  int tw, th;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &tw, &th);  // build the atlas, as a renderer would
  io.DisplaySize = ImVec2(static_cast<float>(o.width), static_cast<float>(o.height));
  io.DeltaTime = 1.0f / 60;
  std::vector<ViewMeasure> all;
  for (const char* tab : {"loss", "bytes", "pipeline"}) {
    for (int frame = 0; frame < 3; ++frame) {  // ImGui settles window sizes over the first frames
      if (frame == 0) app.open_tab = tab;
      clear_labels();
      ImGui::NewFrame();
      draw_app(app, io.DisplaySize.x, io.DisplaySize.y);
      ImGui::Render();
    }
    for (const auto& m : measure_labels())  // the panes other than the charts: measured once
      if (m.view == tab || std::none_of(all.begin(), all.end(), [&](const ViewMeasure& a) { return a.view == m.view; }))
        all.push_back(m);
  }
  for (const auto& m : all)
    std::printf("view=%s width=%d height=%d text_px=%.0f min_contrast=%.1f overlaps=%d labels=%d\n",
                m.view.c_str(), o.width, o.height, m.text_px, m.min_contrast, m.overlaps, m.labels);
  ImGui::DestroyContext();
  return 0;
}

double ms_since(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}


// Everything that is not drawing: read the live socket, follow the launched run, play.
void tick(App& app, double dt_s) {
  if (app.server) pump(*app.server, app.session, 0);
  app.launcher.poll();
  if (Run* run = app.session.current()) {
    const int frames = static_cast<int>(run->timeline.frames().size());
    app.playback.update(dt_s, frames, run->timeline.t_min(), run->timeline.t_max());
  }
}

bool done(const App& app, const Options& o, Clock::time_point start) {
  if (g_stop) return true;
  if (o.quit_when_done && o.screenshot.empty() && app.session.live_run_finished()) return true;
  return o.max_seconds > 0 && ms_since(start) > o.max_seconds * 1000;
}

// --bench-latency: a client thread in this process streams events to our own server, one
// every 50 ms, noting when each was sent; the loop notes when each was first drawn.
struct LatencyProbe {
  std::vector<Clock::time_point> sent;
  std::mutex mutex;
  std::thread thread;
  void start(const Server& server, int count) {
    thread = std::thread([this, address = server.lesson_address(), token = server.token(), count] {
      const int fd = dial(address);
      if (fd < 0) return;
      auto put = [&](const std::string& s) { return send(fd, s.data(), s.size(), MSG_NOSIGNAL) > 0; };
      put("{\"format\":\"ringlab-trace\",\"version\":1,\"ranks\":2,\"program\":\"latency-probe\",\"args\":"
          "\"\",\"token\":\"" +
          token + "\",\"rank\":0}\n");
      for (int i = 0; i < count; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        ringlab::trace::Event e;
        e.op = ringlab::trace::Op::send;
        e.peer = 1;
        e.coll = "probe";
        e.call = i;
        e.phase = "reduce-scatter";
        e.step = 0;
        e.chunk = 0;
        {
          std::lock_guard<std::mutex> lock(mutex);
          sent.push_back(Clock::now());
        }
        put(ringlab::trace::encode(e) + "\n");
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      close(fd);
    });
  }
};

// --listen --headless: the core alone, no window (CI machines without a display).
int run_headless(App& app, const Options& o) {
  const auto start = Clock::now();
  while (!done(app, o, start)) {
    if (app.server) pump(*app.server, app.session, 50);
    else std::this_thread::sleep_for(std::chrono::milliseconds(50));
    app.launcher.poll();
  }
  return 0;
}
}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App cli{
      "ringlab-viz — watch a ringlab run: chunks moving around the ring, buffers, loss, bytes, pipeline"};
  cli.add_option("trace", o.traces, "Trace files to replay (written by a lesson run with --trace FILE)");
  cli.add_option("--replay", o.replay, "A trace file to replay (same as giving it as an argument)");
  cli.add_flag(
      "--listen", o.listen,
      "Accept live runs on this user's private Unix socket: lessons started with --viz stream to it");
  cli.add_option("--socket", o.socket, "With --listen: this Unix socket instead of the default one");
  auto* port = cli.add_option("--port", o.port,
                              "With --listen: TCP on this port instead (0: any free port); lessons need the "
                              "token printed at start")
                   ->capture_default_str()
                   ->check(CLI::Range(0, 65535));
  auto* address = cli.add_option("--address", o.address,
                                 "With --port: the address; anything but 127.0.0.1 exposes the port")
                      ->capture_default_str();
  cli.add_option("--token", o.token, "With --port: the token lessons must send (default: a random one)");
  cli.add_option("--max-events", o.max_events, "Events held at most over all runs (memory bound)")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{100'000'000}));
  cli.add_option("--at", o.at, "Start at this step of the scrubber (0 = the first); chunks drawn mid-edge");
  cli.add_flag("--list-steps", o.list_steps,
               "Print the scrubber's steps of the first trace (for --at) and exit");
  cli.add_option(
      "--screenshot", o.screenshot,
      "Render one frame to this PNG file and exit (with --listen: once the live run has finished)");
  cli.add_option("--tab", o.tab, "Chart tab to show first: loss, bytes, pipeline, launch, notes")
      ->check(CLI::IsMember({"loss", "bytes", "pipeline", "launch", "notes"}));
  cli.add_option("--launch", o.launch, "With --listen: start this lesson at once, as the launch panel does");
  cli.add_option("--launch-np", o.launch_np, "Ranks for --launch")->capture_default_str();
  cli.add_option("--launch-flags", o.launch_flags, "The lesson's flags for --launch")->capture_default_str();
  cli.add_option("--width", o.width, "Window width")->capture_default_str()->check(CLI::Range(320, 7680));
  cli.add_option("--height", o.height, "Window height")->capture_default_str()->check(CLI::Range(240, 4320));
  cli.add_option("--size", o.size, "Window size as WIDTHxHEIGHT (e.g. 1920x1080), instead of --width/--height");
  cli.add_option("--font-scale", o.font_scale,
                 "Text size: this times 1/40 of the window height ([ and ] change it live)")
      ->capture_default_str()
      ->check(CLI::Range(0.5, 4.0));
  cli.add_option("--theme", o.theme, "Colours: dark (screens, projectors) or light (paper: the handout)")
      ->capture_default_str()
      ->check(CLI::IsMember({"dark", "light"}));
  cli.add_flag("--summary-on-exit", o.summary, "Print every run's event count per rank when exiting");
  cli.add_flag("--quit-when-done", o.quit_when_done, "Exit once a live run's ranks have all disconnected");
  cli.add_flag("--headless", o.headless,
               "No window: receive live runs only (with --summary-on-exit, for tests)");
  cli.add_option("--max-seconds", o.max_seconds, "Exit after this many seconds (tests)");
  cli.add_option("--bench-frames", o.bench_frames,
                 "Render this many frames while playing, print frame times, exit");
  cli.add_option(
      "--bench-latency", o.bench_latency,
      "With --listen: send this many events from a test client, print send-to-screen latency, exit");
  // Presenter mode (docs/presenting.md): the deck, its demos run through the launcher.
  cli.add_option("--present", o.present.deck, "Present this markdown deck (keys: docs/presenting.md)");
  cli.add_flag("--notes", o.present.notes, "With --present: a second window with notes, next slide, clock");
  cli.add_flag("--fullscreen", o.present.fullscreen, "With --present: start full screen (F toggles)");
  cli.add_option("--slide", o.present.slide, "With --present: start at this slide (1-based)");
  cli.add_option(
      "--export", o.present.export_dir,
      "With --present: render every slide to DIR/slide-NNN.png (demo slides: a real run) and exit");
  cli.add_flag("--measure", o.present.measure,
               "Print, per view, the text height, the lowest text contrast and overlapping labels, and "
               "exit (no display needed); with --present: every slide's layout");
  cli.add_flag("--check", o.present.check,
               "With --present: run every demo once, as R would, and report a demo whose flags or run "
               "fail, or whose at: is past its last step (no display needed); exit 2 on a problem");
  cli.add_option("--keys", o.present.keys,
                 "With --present: press these keys (e.g. \"Right Right End Home\")");
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return cli.exit(e);  // --help
    std::fprintf(stderr, "ringlab-viz: error: %s (see --help)\n", e.what());
    return 2;
  }
  if (!o.size.empty()) {
    int w = 0, h = 0;
    char extra = 0;
    if (std::sscanf(o.size.c_str(), "%dx%d%c", &w, &h, &extra) != 2 || w < 320 || w > 7680 || h < 240 || h > 4320) {
      std::fprintf(stderr, "ringlab-viz: error: --size '%s': give WIDTHxHEIGHT, 320x240 to 7680x4320\n",
                   o.size.c_str());
      return 2;
    }
    o.width = w, o.height = h;
  }
  Theme theme = Theme::dark;
  theme_from_name(o.theme, &theme);  // CLI11 checked the name
  use_theme(theme);
  const bool tcp = port->count() > 0 || address->count() > 0;
  if (!o.replay.empty()) o.traces.insert(o.traces.begin(), o.replay);
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  std::signal(SIGPIPE, SIG_IGN);

  App app;
  app.session = Session(Limits{o.max_events, Limits{}.max_runs});
  app.background = palette().background;
  app.mpirun = std::string(RINGLAB_SOURCE_DIR) + "/scripts/ringlab-mpirun";
  {  // lessons sit beside this binary (build/bin)
    char self[4096];
    const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    std::string exe = n > 0 ? std::string(self, static_cast<std::size_t>(n)) : std::string(argv[0]);
    app.bin_dir = exe.substr(0, exe.find_last_of('/'));
  }
  if (!o.present.deck.empty()) {
    o.present.width = o.width, o.present.height = o.height, o.present.screenshot = o.screenshot;
    o.present.max_seconds = o.max_seconds, o.present.summary = o.summary,
    o.present.quit_when_done = o.quit_when_done;
    return run_presenter(o.present, app);
  }
  int failed_files = 0;
  for (const auto& t : o.traces) {  // each file's notes once; a refused file's reason as an error
    const std::size_t before = app.session.notes_added();
    const bool ok = app.session.open_file(t);
    failed_files += ok ? 0 : 1;
    const auto& notes = app.session.notes();
    for (std::size_t i = notes.size() - std::min(notes.size(), app.session.notes_added() - before);
         i < notes.size(); ++i)
      std::fprintf(stderr, "ringlab-viz: %s%s\n", ok ? "note: " : "error: ", notes[i].c_str());
  }
  // A trace that does not load is bad input: its one line above, exit 2, no empty window.
  if (failed_files) return 2;
  const std::size_t notes_at_start = app.session.notes_added();
  if (!o.screenshot.empty() && !o.listen && o.traces.empty()) {
    std::fprintf(stderr, "ringlab-viz: --screenshot needs a trace that loads (--replay TRACE)\n");
    return 2;
  }
  if (o.list_steps) {
    if (Run* run = app.session.runs().empty() ? nullptr : app.session.runs().front().get()) {
      const auto& frames = run->timeline.frames();
      for (std::size_t f = 0; f < frames.size(); ++f) std::printf("%zu: %s\n", f, frames[f].label().c_str());
      return 0;
    }
    std::fprintf(stderr, "ringlab-viz: --list-steps needs a trace that loads\n");
    return 2;
  }
  app.source = o.traces.empty() ? "none" : o.traces.back();
  if (app.session.current()) app.session.select(0);
  if (o.at >= 0) app.playback.pos = o.at + 0.5;
  app.open_tab = o.tab;
  app.font_scale = o.font_scale;
  if (o.present.measure) return measure_views(app, o);

  Server server;
  if (o.listen) {
    std::string error;
    Server::Options so;
    if (!tcp) {  // the default: a socket only this user can reach (see server.hpp)
      so.socket_path = o.socket.empty() ? ringlab::viz_stream::default_socket_path(true, &error) : o.socket;
      if (so.socket_path.empty()) {
        std::fprintf(stderr, "ringlab-viz: error: %s\n", error.c_str());
        return 2;
      }
    }
    so.address = o.address;
    so.port = o.port;
    so.token = o.token;
    if (!server.listen(so, &error)) {
      std::fprintf(stderr, "ringlab-viz: error: %s\n", error.c_str());
      return 2;
    }
    app.server = &server;
    app.source = "live " + server.lesson_address();
    app.playback.follow_live = true;
    if (!tcp) {
      const bool is_default = o.socket.empty();
      std::printf("ringlab-viz: listening on %s (run a lesson with --viz%s)\n",
                  server.lesson_address().c_str(), is_default ? "" : (" " + server.lesson_address()).c_str());
    } else {
      // Lessons started from here (Launch tab, --launch) inherit the token from our environment.
      setenv("RINGLAB_VIZ_TOKEN", server.token().c_str(), 1);
      std::printf(
          "ringlab-viz: listening on %s token %s (run a lesson with RINGLAB_VIZ_TOKEN=%s and --viz %s)\n",
          server.lesson_address().c_str(), server.token().c_str(), server.token().c_str(),
          server.lesson_address().c_str());
    }
    std::fflush(stdout);
  }

  if (o.launch > 0) {
    app.form.lesson = o.launch;
    app.form.np = o.launch_np;
    std::snprintf(app.form.flags, sizeof app.form.flags, "%s", o.launch_flags.c_str());
    if (!start_lesson(app)) {
      std::fprintf(stderr, "ringlab-viz: error: --launch: %s\n", app.form.error.c_str());
      return 2;
    }
    app.open_tab = "launch";
  }

  int rc = 0;
  if (o.headless) {
    if (!o.listen) {
      std::fprintf(stderr, "ringlab-viz: --headless only makes sense with --listen\n");
      return 2;
    }
    rc = run_headless(app, o);
  } else {
    // --- setup: window, GL context, ImGui -------------------------------------------------
    if (!glfwInit()) {
      std::fprintf(stderr,
                   "ringlab-viz: error: no display (is $DISPLAY set? try xvfb-run -a, or --headless)\n");
      return 3;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
    if (!o.screenshot.empty()) glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
    GLFWwindow* window = glfwCreateWindow(o.width, o.height, "ringlab-viz", nullptr, nullptr);
    if (!window) {
      std::fprintf(stderr, "ringlab-viz: error: cannot open an OpenGL 3 window\n");
      glfwTerminate();
      return 3;
    }
    glfwMakeContextCurrent(window);
    glfwSwapInterval(0);  // the loop paces itself (below), so Xvfb does not spin
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;  // same layout every start
    // The text: 1/40 of the window height (fonts.hpp), rebuilt when the height or the scale
    // changes. The style comes with it (dark; the panes' background is the clear colour).
    float font_height = static_cast<float>(o.height), font_scale = app.font_scale;
    {
      std::string error;
      if (!use_viewer_font(font_height, font_scale, &error)) {
        std::fprintf(stderr, "ringlab-viz: error: %s\n", error.c_str());
        glfwDestroyWindow(window);
        glfwTerminate();
        return 2;
      }
    }
    ImGui_ImplGlfw_InitForOpenGL(window, true);
    g_app = &app;
    glfwSetDropCallback(window, on_drop);  // drop a trace file on the window to open it
    ImGui_ImplOpenGL3_Init("#version 130");

    // --- loop ----------------------------------------------------------------------------
    const auto start = Clock::now();
    auto last = Clock::now();
    int settled = 0;
    std::vector<double> bench_ms, latency_ms, ui_ms;
    timespec cpu0{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu0);
    LatencyProbe probe;
    std::size_t shown = 0;
    if (o.bench_latency > 0 && app.server) probe.start(*app.server, o.bench_latency);
    if (o.bench_frames > 0) app.playback.playing = true, app.playback.speed = 8;
    while (!glfwWindowShouldClose(window) && !done(app, o, start)) {
      const auto t_frame = Clock::now();
      glfwPollEvents();
      const double dt = std::chrono::duration<double>(t_frame - last).count();
      last = t_frame;
      tick(app, o.screenshot.empty() || o.listen ? dt : 0);
      const auto t_ui = Clock::now();
      int w, h;
      glfwGetFramebufferSize(window, &w, &h);
      // A window resized by more than 5 %, or [ ] pressed: the text follows, before this frame.
      if ((h > 0 && std::abs(h - font_height) > font_height * 0.05f) || app.font_scale != font_scale) {
        std::string error;
        if (use_viewer_font(static_cast<float>(h), app.font_scale, &error)) {
          font_height = static_cast<float>(h), font_scale = app.font_scale;
          ImGui_ImplOpenGL3_DestroyFontsTexture();
          ImGui_ImplOpenGL3_CreateFontsTexture();
        }
      }
      ImGui_ImplOpenGL3_NewFrame();
      ImGui_ImplGlfw_NewFrame();
      ImGui::NewFrame();
      handle_keys(app);
      draw_app(app, static_cast<float>(w), static_cast<float>(h));
      ImGui::Render();
      if (o.bench_frames > 0) ui_ms.push_back(ms_since(t_ui));
      glViewport(0, 0, w, h);
      float clear[3];
      clear_colour(clear);
      glClearColor(clear[0], clear[1], clear[2], 1);
      glClear(GL_COLOR_BUFFER_BIT);
      ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
      // A few frames first: ImGui settles its layout (window sizes) over the first ones.
      // Live (--listen): once the run has finished and the view has caught up.
      if (o.listen && !app.session.live_run_finished()) settled = 0;
      if (!o.screenshot.empty() && ++settled >= (o.listen ? 30 : 3)) {
        glFinish();
        if (!write_png(o.screenshot, w, h)) {
          std::fprintf(stderr, "ringlab-viz: error: cannot write %s\n", o.screenshot.c_str());
          rc = 1;
        } else {
          std::printf("screenshot: %s (%dx%d)\n", o.screenshot.c_str(), w, h);
          std::printf("ring-rect %.1f %.1f %.1f %.1f ranks %zu em %.0f\n", app.ring_rect[0], app.ring_rect[1],
                      app.ring_rect[2], app.ring_rect[3], app.ring.ranks.size(), ImGui::GetFontSize());
        }
        break;
      }
      glfwSwapBuffers(window);
      glFinish();
      app.frame_ms = ms_since(t_frame);
      if (o.bench_latency > 0) {  // events drawn in this frame: their latency is now - sent
        const std::size_t now_shown = app.session.total_events();
        std::lock_guard<std::mutex> lock(probe.mutex);
        for (; shown < now_shown && shown < probe.sent.size(); ++shown)
          latency_ms.push_back(
              std::chrono::duration<double, std::milli>(Clock::now() - probe.sent[shown]).count());
        if (static_cast<int>(latency_ms.size()) >= o.bench_latency) break;
      }
      if (o.bench_frames > 0) {
        bench_ms.push_back(app.frame_ms);
        if (static_cast<int>(bench_ms.size()) >= o.bench_frames) break;
        continue;  // measure at full speed
      }
      // Pace to ~60 frames a second, waking early when a live event arrives.
      const double left = 16.0 - ms_since(t_frame);
      if (left > 1) {
        if (app.server) pump(*app.server, app.session, static_cast<int>(left));
        else std::this_thread::sleep_for(std::chrono::microseconds(static_cast<int>(left * 1000)));
      }
    }
    if (!bench_ms.empty()) {
      timespec cpu1{};
      clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu1);
      const double cpu_ms = (cpu1.tv_sec - cpu0.tv_sec) * 1e3 + (cpu1.tv_nsec - cpu0.tv_nsec) / 1e6;
      double ui = 0;
      for (double v : ui_ms) ui += v;
      if (Run* run = app.session.current())
        std::printf("bench: timeline of %zu events built in %.1f ms\n", run->timeline.event_count(),
                    run->timeline.last_rebuild_ms());
      std::printf(
          "bench: per frame: %.2f ms of CPU in this process (all threads, GL included), %.2f ms building "
          "the UI (core + ImGui)\n",
          cpu_ms / bench_ms.size(), ui / ui_ms.size());
      std::sort(bench_ms.begin(), bench_ms.end());
      double sum = 0;
      for (double v : bench_ms) sum += v;
      std::printf(
          "bench: %zu frames at %dx%d, %zu events loaded: mean %.2f ms, median %.2f ms, p95 %.2f ms, max "
          "%.2f ms\n",
          bench_ms.size(), o.width, o.height, app.session.total_events(), sum / bench_ms.size(),
          bench_ms[bench_ms.size() / 2], bench_ms[bench_ms.size() * 95 / 100], bench_ms.back());
    }

    if (probe.thread.joinable()) probe.thread.join();
    if (!latency_ms.empty()) {
      std::sort(latency_ms.begin(), latency_ms.end());
      double sum = 0;
      for (double v : latency_ms) sum += v;
      std::printf(
          "latency: %zu events, sent -> drawn and presented: mean %.1f ms, median %.1f ms, max %.1f ms\n",
          latency_ms.size(), sum / latency_ms.size(), latency_ms[latency_ms.size() / 2], latency_ms.back());
    }

    // --- shutdown ------------------------------------------------------------------------
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    glfwDestroyWindow(window);
    glfwTerminate();
  }
  while (app.launcher.running() && g_stop == false) {  // a launched run: let it finish, keep its output
    app.launcher.poll();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  app.launcher.poll();
  if (o.summary) {
    if (o.launch > 0) std::printf("launched run output:\n%s", app.launcher.output().c_str());
    std::printf("%s", app.session.summary().c_str());
    const auto& notes = app.session.notes();  // the ones not printed at start
    for (std::size_t i = notes.size() - std::min(notes.size(), app.session.notes_added() - notes_at_start);
         i < notes.size(); ++i)
      std::printf("note: %s\n", notes[i].c_str());
  }
  return rc;
}
