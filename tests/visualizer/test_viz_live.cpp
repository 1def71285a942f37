// The visualizer core's live side with no display: the socket server against good, garbage,
// oversized and vanishing clients; sessions merging ranks; playback; layout; the launcher.
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>
#include <string>

#include "catch.hpp"
#include "viz/launcher.hpp"
#include "viz/layout.hpp"
#include "viz/playback.hpp"
#include "viz/server.hpp"
#include "viz/session.hpp"

using namespace ringlab;
using namespace ringlab::viz;

namespace {
void send_text(int fd, const std::string& s) {
  std::size_t done = 0;
  while (done < s.size()) {
    const ssize_t n = send(fd, s.data() + done, s.size() - done, MSG_NOSIGNAL);
    if (n <= 0) return;  // the server may close on us (that is what some tests check)
    done += static_cast<std::size_t>(n);
  }
}
// A client connected to `server`, which has sent `text` already.
int connect_to(const Server& server, const std::string& text = "") {
  const int fd = dial(server.lesson_address());
  REQUIRE(fd >= 0);
  send_text(fd, text);
  return fd;
}
// The header a lesson sends: the file's, plus its rank and (TCP) the visualizer's token.
std::string header(int rank, int ranks = 4, const std::string& token = "") {
  return "{\"format\":\"ringlab-trace\",\"version\":1,\"ranks\":" + std::to_string(ranks) +
         ",\"program\":\"lesson_05\",\"args\":\"\",\"clock\":\"us\",\"token\":\"" + token +
         "\",\"rank\":" + std::to_string(rank) + "}\n";
}
// A private Unix socket path for one test (the default transport).
std::string socket_path(const char* name) {
  return "/tmp/ringlab-test-" + std::to_string(getpid()) + "-" + name;
}
std::string event(int rank, int peer = 1) {
  trace::Event e;
  e.rank = rank, e.op = trace::Op::send, e.peer = peer, e.coll = "ring_allreduce", e.call = 0;
  e.phase = "reduce-scatter", e.step = 0, e.chunk = rank;
  return trace::encode(e) + "\n";
}
// Polls the server into the session until `until` holds or two seconds pass.
template <class F> bool pump(Server& server, Session& s, F until) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (std::chrono::steady_clock::now() < deadline) {
    pump(server, s, 20);
    if (until()) return true;
  }
  return false;
}
// Sends `text` without blocking, serving the server between sends (one thread plays both
// ends); stops when the server closes the connection. True when all of it went out.
bool send_serving(int fd, const std::string& text, Server& server, Session& s) {
  std::size_t done = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (done < text.size() && std::chrono::steady_clock::now() < deadline) {
    const ssize_t n = send(fd, text.data() + done, text.size() - done, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) return false;
    if (n > 0) done += static_cast<std::size_t>(n);
    pump(server, s, 0);
  }
  return done == text.size();
}
bool has_note(const Session& s, const std::string& text) {
  return std::ranges::any_of(s.notes(),
                             [&](const std::string& n) { return n.find(text) != std::string::npos; });
}
}  // namespace

TEST_CASE("the server listens on 127.0.0.1 by default and refuses a bad address") {
  Server s;
  Server::Options o{.port = 0};
  std::string error;
  REQUIRE(s.listen(o, &error));
  CHECK(s.address() == "127.0.0.1");
  CHECK(s.port() > 0);
  CHECK(s.token().size() == 32);  // TCP: a fresh 128-bit token per visualizer
  CHECK(s.lesson_address() == "127.0.0.1:" + std::to_string(s.port()));
  Server other;
  REQUIRE(other.listen(o, &error));
  CHECK(other.token() != s.token());
  Server bad;
  o.address = "not-an-address";
  CHECK_FALSE(bad.listen(o, &error));
  CHECK(error.find("not-an-address") != std::string::npos);
  std::string host;
  int port = 0;
  CHECK(parse_host_port("127.0.0.1:7777", host, port, &error));
  CHECK(port == 7777);
  CHECK_FALSE(parse_host_port("7777", host, port, &error));
  CHECK_FALSE(parse_host_port("localhost:99999", host, port, &error));
}

TEST_CASE("live ranks are merged into one run, and a disconnect becomes a note") {
  Server server;
  REQUIRE(server.listen({.port = 0}, nullptr));
  Session s;
  int fds[4];
  for (int r = 0; r < 4; ++r) {
    fds[r] = connect_to(server, header(r, 4, server.token()) + event(r, (r + 1) % 4) + event(r, (r + 1) % 4));
  }
  REQUIRE(pump(server, s, [&] { return s.total_events() == 8; }));
  REQUIRE(s.runs().size() == 1);
  CHECK(s.connected() == 4);
  for (int r = 0; r < 4; ++r) CHECK(s.current()->events_per_rank[r] == 2);
  CHECK_FALSE(s.live_run_finished());
  close(fds[3]);
  REQUIRE(pump(server, s, [&] { return has_note(s, "rank 3 disconnected"); }));
  CHECK(s.connected() == 3);
  for (int r = 0; r < 3; ++r) close(fds[r]);
  REQUIRE(pump(server, s, [&] { return s.live_run_finished(); }));
  CHECK(s.summary().find("rank 3: 2 events") != std::string::npos);
}

TEST_CASE("garbage and oversized frames are refused, and the server keeps serving the others") {
  Server server;
  REQUIRE(server.listen({.port = 0, .max_frame = 64 * 1024}, nullptr));
  Session s;
  const int good = connect_to(server, header(0, 2, server.token()) + event(0));
  REQUIRE(pump(server, s, [&] { return s.total_events() == 1; }));

  // Not a ringlab stream at all: refused before any header.
  const int junk = connect_to(server, "GET / HTTP/1.1\r\n\r\n");
  REQUIRE(pump(server, s, [&] { return has_note(s, "not a ringlab trace stream"); }));

  // A good header, then garbage lines: each refused, the connection stays, good lines pass.
  const int noisy =
      connect_to(server, header(1, 2, server.token()) + "{{{ garbage\n" +
                             "{\"rank\":1,\"op\":\"warp\",\"t0\":0,\"t1\":0}\n" + event(0) + event(1, 0));
  REQUIRE(pump(server, s, [&] { return s.total_events() == 2; }));
  CHECK(has_note(s, "rank 1: frame refused: event is not a JSON object"));
  CHECK(has_note(s, "unknown op 'warp'"));
  CHECK(has_note(s, "event of rank 0 on rank 1's connection"));

  // A frame over the limit: refused and that connection closed.
  const int big = connect_to(server, header(1, 2, server.token()) + std::string(200 * 1024, 'x'));
  REQUIRE(pump(server, s, [&] { return has_note(s, "frame longer than 65536 bytes refused"); }));

  // Still serving: the first client's next event arrives.
  send_text(good, event(0));
  REQUIRE(pump(server, s, [&] { return s.total_events() == 3; }));
  for (int fd : {good, junk, noisy, big}) close(fd);
  REQUIRE(pump(server, s, [&] { return server.connections() == 0; }));
}

TEST_CASE("playback steps, clamps, plays to the end and follows a live run") {
  Playback p;
  for (const auto& [delta, pos] : {std::pair{+1, 1.5}, {-5, 0.5}, {+100, 7.5}}) {
    p.step(delta, 8);
    CHECK(p.pos == Approx(pos));
  }
  p.pos = 0;
  p.toggle();
  p.speed = 2;
  p.update(1.0, 8, 0, 100);
  CHECK(p.pos == Approx(2.0));
  p.update(100.0, 8, 0, 100);
  CHECK_FALSE(p.playing);
  CHECK(p.pos < 8);
  p.faster();
  CHECK(p.speed == 4);
  for (int i = 0; i < 20; ++i) p.slower();
  CHECK(p.speed == Approx(0.125));
  Playback live;
  live.follow_live = true;
  for (int i = 0; i < 100; ++i) live.update(0.05, 20, 0, 10);
  CHECK(live.pos == Approx(19));
}

TEST_CASE("the ring layout puts 1 to 64 ranks on a circle inside the view, rank 0 on top") {
  for (int n : {1, 2, 3, 4, 8, 16, 64}) {
    const RingLayout l = ring_layout(n, 100, 50, 740, 530);
    REQUIRE(l.ranks.size() == static_cast<std::size_t>(n));
    CHECK(l.ranks[0].x == Approx(420));
    CHECK(l.ranks[0].y < l.center.y);
    std::set<std::pair<int, int>> distinct;
    for (const auto& p : l.ranks) {
      CHECK(p.x - l.node_radius >= 100 - 0.01);
      CHECK(p.x + l.node_radius <= 740 + 0.01);
      CHECK(p.y - l.node_radius >= 50 - 0.01);
      CHECK(p.y + l.node_radius <= 530 + 0.01);
      CHECK(std::hypot(p.x - l.center.x, p.y - l.center.y) == Approx(l.radius));
      distinct.insert({static_cast<int>(p.x), static_cast<int>(p.y)});
    }
    CHECK(distinct.size() == static_cast<std::size_t>(n));
    if (n > 1) {
      // A chunk starts at its sender and ends at its receiver (shifted aside by less than a box).
      const Vec2 a = move_point(l, 0, 1, 0), b = move_point(l, 0, 1, 1);
      CHECK(std::hypot(a.x - l.ranks[0].x, a.y - l.ranks[0].y) < l.box.y);
      CHECK(std::hypot(b.x - l.ranks[1].x, b.y - l.ranks[1].y) < l.box.y);
      // a->b and b->a do not cover each other
      const Vec2 ab = move_point(l, 0, 1, 0.5f), ba = move_point(l, 1, 0, 0.5f);
      CHECK(std::hypot(ab.x - ba.x, ab.y - ba.y) >= l.box.y);
    }
  }
  CHECK(phase_colour("reduce-scatter").r != phase_colour("allgather").r);
}

TEST_CASE("the launcher builds an argument vector and runs it without a shell") {
  std::vector<std::string> argv;
  std::string error;
  CHECK_FALSE(lesson_command("mpirun", "/nonexistent", 5, 4, "", "", argv, &error));
  CHECK(error.find("not built") != std::string::npos);
  CHECK_FALSE(lesson_command("mpirun", "/tmp", 0, 4, "", "", argv, &error));
  CHECK_FALSE(lesson_command("mpirun", "/tmp", 5, 0, "", "", argv, &error));
  REQUIRE(LESSON_BIN_DIR[0] != 0);
  REQUIRE(lesson_command("run", LESSON_BIN_DIR, 5, 2, "--count 8  --check; rm -rf /", "127.0.0.1:7777", argv,
                         &error));
  const std::vector<std::string> expected{
      "run",     "-np", "2",        std::string(LESSON_BIN_DIR) + "/lesson_05",
      "--count", "8",   "--check;", "rm",
      "-rf",     "/",   "--viz",    "127.0.0.1:7777"};
  CHECK(argv == expected);  // words stay words: nothing is interpreted by a shell

  Launcher l;
  REQUIRE(l.start({"/bin/sh", "-c", "echo hello from the run; exit 3"}, &error));
  l.wait(2);
  CHECK_FALSE(l.running());
  CHECK(l.exit_code() == 3);
  CHECK(l.output().find("hello from the run") != std::string::npos);
  Launcher missing;
  REQUIRE(missing.start({"/nonexistent/program"}, &error));
  missing.wait(2);
  CHECK(missing.exit_code() == 127);
}

TEST_CASE("the Unix socket is private, a live one is not stolen, a stale one is replaced") {
  const std::string path = socket_path("private");
  Server::Options o{.socket_path = path};
  std::string error;
  {
    Server server;
    REQUIRE(server.listen(o, &error));
    CHECK(server.lesson_address() == "unix:" + path);
    CHECK(server.token().empty());
    struct stat st {};
    REQUIRE(stat(path.c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0600);  // connecting needs write permission: only this user has it
    Server second;
    CHECK_FALSE(second.listen(o, &error));
    CHECK(error.find("another visualizer is listening there") != std::string::npos);
    // No token needed: the socket's permissions are the access control.
    Session s;
    const int fd = connect_to(server, header(0, 1) + event(0, -1));
    REQUIRE(pump(server, s, [&] { return s.total_events() == 1; }));
    close(fd);
  }
  struct stat st {};
  CHECK(stat(path.c_str(), &st) != 0);  // removed at exit
  {                                     // a stale socket file, left by a killed visualizer: taken over
    Server dead;
    REQUIRE(dead.listen(o, &error));
  }
  std::ofstream(path + ".file") << "x";
  Server s2;
  o.socket_path = path + ".file";
  CHECK_FALSE(s2.listen(o, &error));
  CHECK(error.find("not a socket") != std::string::npos);
  std::remove((path + ".file").c_str());
}

TEST_CASE("over TCP, a connection without the right token is closed and noted") {
  Server server;
  const Server::Options o{.port = 0, .token = "0123456789abcdef0123456789abcdef"};
  REQUIRE(server.listen(o, nullptr));
  Session s;
  const int none =
      connect_to(server, header(0, 2).replace(header(0, 2).find(",\"token\":\"\""), 11, "") + event(0));
  const int wrong = connect_to(server, header(0, 2, "0123456789abcdef0123456789abcdee") + event(0));
  const int typed = connect_to(
      server, "{\"format\":\"ringlab-trace\",\"version\":1,\"ranks\":2,\"rank\":0,\"token\":[1]}\n");
  REQUIRE(pump(server, s, [&] { return server.connections() == 0; }));
  CHECK(has_note(s, "connection 0: no token"));
  CHECK(has_note(s, "connection 1: wrong token"));
  CHECK(has_note(s, "connection 2: wrong token"));
  CHECK(s.total_events() == 0);
  const int good = connect_to(server, header(1, 2, o.token) + event(1, 0));
  REQUIRE(pump(server, s, [&] { return s.total_events() == 1; }));
  for (int fd : {none, wrong, typed, good}) close(fd);
}

TEST_CASE("hostile lines: wrong types and out-of-range integers are refused by name, nothing crashes") {
  Server server;
  REQUIRE(server.listen({.socket_path = socket_path("hostile")}, nullptr));
  Session s;
  // Headers that once aborted the visualizer (nlohmann type_error) or read rank 4294967297 as 1.
  connect_to(server, "{\"format\":[]}\n");
  connect_to(server, "{\"format\":\"ringlab-trace\",\"version\":1,\"ranks\":2,\"rank\":4294967297}\n");
  REQUIRE(pump(server, s, [&] { return server.connections() == 0; }));
  CHECK(has_note(s, "connection 0: not a ringlab trace stream"));
  CHECK(has_note(s, "connection 1: header without a valid 'rank'"));
  // Events with fields of the wrong type: each refused with the field's name, the stream goes on.
  const int fd = connect_to(server, header(0, 2) + "{\"rank\":0,\"op\":\"send\",\"t0\":\"x\"}\n" +
                                        "{\"rank\":4294967296,\"op\":\"send\"}\n" +
                                        "{\"rank\":0,\"op\":\"send\",\"values\":[1,[2]]}\n" + event(0));
  REQUIRE(pump(server, s, [&] { return s.total_events() == 1; }));
  CHECK(has_note(s, "rank 0: frame refused: field 't0' must be a number"));
  CHECK(has_note(s, "rank 0: frame refused: field 'rank' must be a whole number in"));
  CHECK(has_note(s, "rank 0: frame refused: field 'values' must be a list of numbers"));
  close(fd);
}

TEST_CASE("a refused trace file is one note naming the line and field; the rest of the file loads") {
  const std::string path = socket_path("bad.trace");
  std::ofstream(path) << "{\"format\":\"ringlab-trace\",\"version\":1,\"ranks\":2}\n"
                      << event(0) << "{\"rank\":0,\"op\":\"send\",\"step\":4294967297}\n"
                      << event(1, 0);
  Session s;
  REQUIRE(s.open_file(path));
  CHECK(s.total_events() == 2);
  CHECK(has_note(s, "line 3: field 'step' must be a whole number in"));
  std::ofstream(path) << "{\"format\":[]}\n";
  CHECK_FALSE(s.open_file(path));
  CHECK(s.notes().back() == path + ": header: not a ringlab trace (format field missing or different)");
  std::remove(path.c_str());
}

TEST_CASE("limits: connections, events held and runs are bounded; over a limit, a note and a close") {
  Server server;
  REQUIRE(server.listen({.socket_path = socket_path("limits"), .max_connections = 3}, nullptr));
  Session s(Limits{.max_events = 5000, .max_runs = 3});

  // One connection too many: refused with a note.
  std::vector<int> fds;
  for (int i = 0; i < 4; ++i) fds.push_back(connect_to(server));
  REQUIRE(pump(server, s, [&] { return has_note(s, "refused a connection: already 3 open"); }));
  for (int fd : fds) close(fd);
  REQUIRE(pump(server, s, [&] { return server.connections() == 0; }));

  // A flood of valid events: held up to the limit, then that connection is closed.
  const int flood = connect_to(server);
  std::string burst = header(0, 1);
  for (int i = 0; i < 20000; ++i) burst += event(0, -1);
  CHECK_FALSE(send_serving(flood, burst, server, s));  // the server closes it part way
  REQUIRE(pump(server, s, [&] { return has_note(s, "holds 5000 events at most"); }));
  CHECK(s.total_events() == 5000);
  REQUIRE(pump(server, s, [&] { return server.connections() == 0; }));
  close(flood);

  // Reconnecting in a loop makes a new run each time: the oldest finished runs make room.
  for (int i = 0; i < 6; ++i) {
    const int fd = connect_to(server, header(0, 1));
    close(fd);
    REQUIRE(pump(server, s, [&] { return server.connections() == 0 && s.live_run_finished(); }));
  }
  CHECK(s.runs().size() == 3);
  CHECK(has_note(s, "closed the oldest run"));
  CHECK(s.total_events() <= 5000);
}

// Memory stays bounded under a flood: a client streams 300,000 valid events (about 60 MB of
// JSON) over the Unix socket as fast as it can, reconnecting whenever it is closed; the process
// grows by the events it holds (a limit of 20,000 here, about 300 bytes each), not by what was
// sent. Bounded in count and in time (60 s at most).
#ifdef __SANITIZE_ADDRESS__
// Under AddressSanitizer freed memory waits in a quarantine (256 MB) and every byte has shadow:
// the process's size says little about the program's, and everything runs slower. The flood
// is shorter there and only the counts are checked.
constexpr std::size_t kFlood = 60000;
constexpr bool kCheckRss = false;
#else
constexpr std::size_t kFlood = 300000;
constexpr bool kCheckRss = true;
#endif

TEST_CASE("memory stays bounded while a client floods valid events and reconnects") {
  auto rss_mb = [] {
    long pages = 0, resident = 0;
    std::ifstream("/proc/self/statm") >> pages >> resident;
    return static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE)) / 1e6;
  };
  Server server;
  REQUIRE(server.listen({.socket_path = socket_path("flood")}, nullptr));
  const Limits limits{.max_events = 20000};
  Session s(limits);
  const double before = rss_mb();
  std::string batch;
  for (int i = 0; i < 1000; ++i) batch += event(0, 1);
  std::size_t sent = 0, connections = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (sent < kFlood && std::chrono::steady_clock::now() < deadline) {
    const int fd = connect_to(server, header(0, 2));
    ++connections;
    while (sent < kFlood && send_serving(fd, batch, server, s)) sent += 1000;
    sent += 1000;  // (part of) the last batch went out before the close
    close(fd);
  }
  REQUIRE(pump(server, s, [&] { return server.connections() == 0; }));
  const double grew = rss_mb() - before;
  INFO("offered about " << sent << " events on " << connections << " connections; the visualizer holds "
                        << s.total_events() << " in " << s.runs().size() << " runs, grew " << grew << " MB");
  CHECK(sent >= kFlood);
  CHECK(s.total_events() == 20000);
  CHECK(s.runs().size() <= limits.max_runs);
  CHECK(has_note(s, "holds 20000 events at most"));
  if (kCheckRss) CHECK(grew < 100);  // 20,000 events are a few MB; memory per event sent would be far more
}
