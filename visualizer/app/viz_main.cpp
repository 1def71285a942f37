// ringlab-viz — the visualizer window: a real run's chunks moving around the ring, every
// rank's buffer, loss per worker, bytes per rank, the pipeline. Setup, loop, shutdown, in that
// order, as Dear ImGui's example_glfw_opengl3 does (shell.hpp holds their GL and ImGui calls);
// everything it draws comes from visualizer/core (no window there) through views.cpp.
//   ringlab-viz TRACE...                        replay recorded traces
//   ringlab-viz --listen                        live: lessons run with --viz (this user's socket)
//   ringlab-viz --listen --port 7777            live over TCP: lessons need the token it prints
//   ringlab-viz --replay TRACE --at 3 --screenshot out.png    render one frame and exit
// The slides are another program over the same views: ringlab-present (present_main.cpp).
#include <sys/socket.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <mutex>
#include <numeric>
#include <thread>

#include "fonts.hpp"
#include "ringlab/trace/viz_stream.hpp"
#include "shell.hpp"
#include "theme.hpp"
#include "views.hpp"

using namespace ringlab::viz;

namespace {
std::atomic<bool> g_stop{false};
void on_signal(int) { g_stop = true; }
App* g_app = nullptr;  // for GLFW's drop callback: a trace file dropped on the window opens
void on_drop(GLFWwindow*, int count, const char** paths) {
  for (int i = 0; i < count; ++i) g_app->session.open_file(paths[i]);
}

struct Options {
  CommonFlags common;
  std::vector<std::string> traces;
  std::string replay, screenshot, address = "127.0.0.1", tab, socket, token;
  std::string launch_flags = "--schedule --count 8 --type int32";
  std::size_t max_events = Limits{}.max_events;
  bool list_steps = false, listen = false, headless = false, measure = false;
  int port = 7777, launch = 0, launch_np = 4, bench_frames = 0, bench_latency = 0;
  double at = -1;
  float font_scale = 1;
};

void add_flags(CLI::App& cli, Options& o) {
  cli.add_option("trace", o.traces, "Trace files to replay (written by a lesson run with --trace FILE)");
  cli.add_option("--replay", o.replay, "A trace file to replay (same as giving it as an argument)");
  cli.add_flag(
      "--listen", o.listen,
      "Accept live runs on this user's private Unix socket: lessons started with --viz stream to it");
  cli.add_option("--socket", o.socket, "With --listen: this Unix socket instead of the default one");
  cli.add_option("--port", o.port,
                 "With --listen: TCP on this port instead (0: any free port); lessons need the token printed "
                 "at start")
      ->capture_default_str()
      ->check(CLI::Range(0, 65535));
  cli.add_option("--address", o.address, "With --port: the address; anything but 127.0.0.1 exposes the port")
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
  cli.add_option("--font-scale", o.font_scale,
                 "Text size: this times 1/40 of the window height ([ and ] change it live)")
      ->capture_default_str()
      ->check(CLI::Range(0.5, 4.0));
  add_common_flags(cli, o.common);
  cli.add_flag("--headless", o.headless,
               "No window: receive live runs only (with --summary-on-exit, for tests)");
  cli.add_option("--bench-frames", o.bench_frames,
                 "Render this many frames while playing, print frame times, exit");
  cli.add_option(
      "--bench-latency", o.bench_latency,
      "With --listen: send this many events from a test client, print send-to-screen latency, exit");
  cli.add_flag("--measure", o.measure,
               "Print, per view, the text height, the lowest text contrast and overlapping labels, and exit "
               "(no display needed)");
}

// Sorted; then the mean, the median, the 95th percentile and the max.
struct Spread {
  double mean = 0, median = 0, p95 = 0, max = 0;
  explicit Spread(std::vector<double> ms) {
    std::sort(ms.begin(), ms.end());
    mean = std::accumulate(ms.begin(), ms.end(), 0.0) / ms.size();
    median = ms[ms.size() / 2], p95 = ms[ms.size() * 95 / 100], max = ms.back();
  }
};

// --bench-frames: each frame's time, the part of it spent building the UI (core + ImGui), and
// the CPU time the whole process spent meanwhile.
struct FrameBench {
  std::vector<double> frame_ms, ui_ms;
  std::clock_t cpu0 = std::clock();  // the CPU time of the whole process
  void report(App& app, int width, int height) const {
    if (frame_ms.empty()) return;
    const double cpu_ms = 1e3 * static_cast<double>(std::clock() - cpu0) / CLOCKS_PER_SEC;
    if (Run* run = app.session.current())
      std::printf("bench: timeline of %zu events built in %.1f ms\n", run->timeline.event_count(),
                  run->timeline.last_rebuild_ms());
    std::printf(
        "bench: per frame: %.2f ms of CPU in this process (all threads, GL included), %.2f ms building "
        "the UI (core + ImGui)\n",
        cpu_ms / frame_ms.size(), Spread(ui_ms).mean);
    const Spread s(frame_ms);
    std::printf(
        "bench: %zu frames at %dx%d, %zu events loaded: mean %.2f ms, median %.2f ms, p95 %.2f ms, "
        "max %.2f ms\n",
        frame_ms.size(), width, height, app.session.total_events(), s.mean, s.median, s.p95, s.max);
  }
};

// --bench-latency: a client thread in this process streams events to our own server, one every
// 50 ms, noting when each was sent; the loop notes when each was first drawn.
struct LatencyProbe {
  std::vector<Clock::time_point> sent;
  std::vector<double> latency_ms;
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
        e.op = ringlab::trace::Op::send, e.peer = 1, e.coll = "probe", e.call = i;
        e.phase = "reduce-scatter", e.step = 0, e.chunk = 0;
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
  // After a frame was presented: the events drawn for the first time. True once `count` were.
  bool drawn(const App& app, int count) {
    std::lock_guard<std::mutex> lock(mutex);
    for (std::size_t i = latency_ms.size(); i < app.session.total_events() && i < sent.size(); ++i)
      latency_ms.push_back(ms_since(sent[i]));
    return static_cast<int>(latency_ms.size()) >= count;
  }
  void report() {
    if (thread.joinable()) thread.join();
    if (latency_ms.empty()) return;
    const Spread s(latency_ms);
    std::printf(
        "latency: %zu events, sent -> drawn and presented: mean %.1f ms, median %.1f ms, max %.1f ms\n",
        latency_ms.size(), s.mean, s.median, s.max);
  }
};

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
  if (o.common.quit_when_done && o.screenshot.empty() && app.session.live_run_finished()) return true;
  return o.common.max_seconds > 0 && ms_since(start) > o.common.max_seconds * 1000;
}

// --listen: this user's private socket by default (see server.hpp), TCP with --port or --address.
bool listen(Server& server, App& app, const Options& o, bool tcp) {
  std::string error;
  Server::Options so;
  if (!tcp)
    so.socket_path = o.socket.empty() ? ringlab::viz_stream::default_socket_path(true, &error) : o.socket;
  so.address = o.address, so.port = o.port, so.token = o.token;
  if ((!tcp && so.socket_path.empty()) || !server.listen(so, &error))
    return fail(false, "ringlab-viz: error: %s", error.c_str());
  app.server = &server;
  app.source = "live " + server.lesson_address();
  app.playback.follow_live = true;
  const std::string where = server.lesson_address();
  if (!tcp) {
    std::printf("ringlab-viz: listening on %s (run a lesson with --viz%s)\n", where.c_str(),
                o.socket.empty() ? "" : (" " + where).c_str());
  } else {
    // Lessons started from here (Launch tab, --launch) inherit the token from our environment.
    setenv("RINGLAB_VIZ_TOKEN", server.token().c_str(), 1);
    const char* token = server.token().c_str();
    std::printf(
        "ringlab-viz: listening on %s token %s (run a lesson with RINGLAB_VIZ_TOKEN=%s and --viz %s)\n",
        where.c_str(), token, token, where.c_str());
  }
  std::fflush(stdout);
  return true;
}

// The notes the session added since it had `since` (a file's refused lines, a rank that left).
std::vector<std::string> notes_since(const Session& session, std::size_t since) {
  const auto& notes = session.notes();
  return {notes.end() - std::min(notes.size(), session.notes_added() - since), notes.end()};
}

// Each trace file's notes, once; a refused file's reason as an error. False: one was refused.
bool open_traces(Session& session, const std::vector<std::string>& traces) {
  int failed = 0;
  for (const auto& t : traces) {
    const std::size_t before = session.notes_added();
    const bool ok = session.open_file(t);
    failed += ok ? 0 : 1;
    for (const auto& note : notes_since(session, before))
      std::fprintf(stderr, "ringlab-viz: %s%s\n", ok ? "note: " : "error: ", note.c_str());
  }
  return failed == 0;
}
}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App cli{
      "ringlab-viz — watch a ringlab run: chunks moving around the ring, buffers, loss, bytes, pipeline"};
  add_flags(cli, o);
  const int parsed = parse_flags(cli, argc, argv, "ringlab-viz", o.common);  // -1: go on
  if (parsed >= 0) return parsed;
  const bool tcp = cli.count("--port") > 0 || cli.count("--address") > 0;
  if (!o.replay.empty()) o.traces.insert(o.traces.begin(), o.replay);
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  std::signal(SIGPIPE, SIG_IGN);

  App app;
  app.session = Session(Limits{o.max_events, Limits{}.max_runs});
  find_kit(app, argv[0]);
  if (!open_traces(app.session, o.traces)) return 2;  // bad input: its one line, no empty window
  const std::size_t notes_at_start = app.session.notes_added();
  if (!o.screenshot.empty() && !o.listen && o.traces.empty())
    return fail(2, "ringlab-viz: --screenshot needs a trace that loads (--replay TRACE)");
  if (o.list_steps) {
    if (app.session.runs().empty()) return fail(2, "ringlab-viz: --list-steps needs a trace that loads");
    const auto& frames = app.session.runs().front()->timeline.frames();
    for (std::size_t f = 0; f < frames.size(); ++f) std::printf("%zu: %s\n", f, frames[f].label().c_str());
    return 0;
  }
  app.source = o.traces.empty() ? "none" : o.traces.back();
  if (app.session.current()) app.session.select(0);
  if (o.at >= 0) app.playback.pos = o.at + 0.5;
  app.open_tab = o.tab;
  app.font_scale = o.font_scale;
  std::string error;
  if (o.measure && !measure_views(app, o.common.width, o.common.height, &error))
    return fail(2, "ringlab-viz: error: %s", error.c_str());
  if (o.measure) return 0;

  Server server;
  if (o.listen && !listen(server, app, o, tcp)) return 2;
  if (o.launch > 0) {
    app.form.lesson = o.launch, app.form.np = o.launch_np;
    std::snprintf(app.form.flags, sizeof app.form.flags, "%s", o.launch_flags.c_str());
    if (!start_lesson(app)) return fail(2, "ringlab-viz: error: --launch: %s", app.form.error.c_str());
    app.open_tab = "launch";
  }

  int rc = 0;
  if (o.headless) {  // --listen --headless: the core alone, no window (CI machines without a display)
    if (!o.listen) return fail(2, "ringlab-viz: --headless only makes sense with --listen");
    for (const auto start = Clock::now(); !done(app, o, start);) {
      pump(*app.server, app.session, 50);
      app.launcher.poll();
    }
  } else {
    // --- setup: window, GL context, ImGui -------------------------------------------------
    if (!glfwInit())
      return fail(3, "ringlab-viz: error: no display (is $DISPLAY set? try xvfb-run -a, or --headless)");
    Window window = open_window(o.common.width, o.common.height, "ringlab-viz", o.screenshot.empty());
    if (!window.glfw) {
      glfwTerminate();
      return fail(3, "ringlab-viz: error: cannot open an OpenGL 3 window");
    }
    // The text: 1/40 of the window height (fonts.hpp), rebuilt when the height or the scale
    // changes. The style comes with it (the panes' background is the clear colour).
    float font_height = static_cast<float>(o.common.height), font_scale = app.font_scale;
    if (!use_viewer_font(font_height, font_scale, &error)) {
      close_window(window);
      glfwTerminate();
      return fail(2, "ringlab-viz: error: %s", error.c_str());
    }
    g_app = &app;
    glfwSetDropCallback(window.glfw, on_drop);  // drop a trace file on the window to open it

    // --- loop ----------------------------------------------------------------------------
    const auto start = Clock::now();
    auto last = start;
    int settled = 0;
    FrameBench bench;
    LatencyProbe probe;
    if (o.bench_latency > 0 && app.server) probe.start(*app.server, o.bench_latency);
    if (o.bench_frames > 0) app.playback.playing = true, app.playback.speed = 8;
    while (!glfwWindowShouldClose(window.glfw) && !done(app, o, start)) {
      const auto t_frame = Clock::now();
      glfwPollEvents();
      tick(app, o.screenshot.empty() || o.listen ? std::chrono::duration<double>(t_frame - last).count() : 0);
      last = t_frame;
      const auto t_ui = Clock::now();
      int w, h;
      glfwGetFramebufferSize(window.glfw, &w, &h);
      // A window resized by more than 5 %, or [ ] pressed: the text follows, before this frame.
      if (((h > 0 && std::abs(h - font_height) > font_height * 0.05f) || app.font_scale != font_scale) &&
          use_viewer_font(static_cast<float>(h), app.font_scale, &error)) {
        font_height = static_cast<float>(h), font_scale = app.font_scale;
        upload_fonts();
      }
      begin_frame(window);
      handle_keys(app);
      draw_app(app, static_cast<float>(w), static_cast<float>(h));
      ImGui::Render();
      if (o.bench_frames > 0) bench.ui_ms.push_back(ms_since(t_ui));
      draw_frame(w, h, palette().background);
      // A few frames first: ImGui settles its layout (window sizes) over the first ones.
      // Live (--listen): once the run has finished and the view has caught up.
      if (o.listen && !app.session.live_run_finished()) settled = 0;
      if (!o.screenshot.empty() && ++settled >= (o.listen ? 30 : 3)) {
        if (!write_png(o.screenshot, w, h)) {
          rc = fail(1, "ringlab-viz: error: cannot write %s", o.screenshot.c_str());
        } else {
          std::printf("screenshot: %s (%dx%d)\n", o.screenshot.c_str(), w, h);
          std::printf("ring-rect %.1f %.1f %.1f %.1f ranks %zu em %.0f\n", app.ring_rect[0], app.ring_rect[1],
                      app.ring_rect[2], app.ring_rect[3], app.ring.ranks.size(), ImGui::GetFontSize());
        }
        break;
      }
      glfwSwapBuffers(window.glfw);
      glFinish();
      app.frame_ms = ms_since(t_frame);
      if (o.bench_latency > 0 && probe.drawn(app, o.bench_latency)) break;
      if (o.bench_frames > 0) {
        bench.frame_ms.push_back(app.frame_ms);
        if (static_cast<int>(bench.frame_ms.size()) >= o.bench_frames) break;
        continue;  // measure at full speed
      }
      // Pace to ~60 frames a second, waking early when a live event arrives.
      const double left = 16.0 - ms_since(t_frame);
      if (left > 1 && app.server) pump(*app.server, app.session, static_cast<int>(left));
      else if (left > 1)
        std::this_thread::sleep_for(std::chrono::microseconds(static_cast<int>(left * 1000)));
    }
    bench.report(app, o.common.width, o.common.height);
    probe.report();

    // --- shutdown ------------------------------------------------------------------------
    close_window(window);
    glfwTerminate();
  }
  while (app.launcher.running() && !g_stop) {  // a launched run: let it finish, keep its output
    app.launcher.poll();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  app.launcher.poll();
  if (o.common.summary) {
    if (o.launch > 0) std::printf("launched run output:\n%s", app.launcher.output().c_str());
    std::printf("%s", app.session.summary().c_str());
    for (const auto& note : notes_since(app.session, notes_at_start)) std::printf("note: %s\n", note.c_str());
  }
  return rc;
}
