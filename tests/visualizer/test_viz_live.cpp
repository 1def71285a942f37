// The visualizer core's live side with no display: the socket server against good, garbage,
// oversized and vanishing clients; sessions merging ranks; playback; layout; the launcher.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
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
int connect_to(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<std::uint16_t>(port));
  inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
  REQUIRE(connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
  return fd;
}
void send_text(int fd, const std::string& s) {
  std::size_t done = 0;
  while (done < s.size()) {
    const ssize_t n = send(fd, s.data() + done, s.size() - done, MSG_NOSIGNAL);
    if (n <= 0) return;  // the server may close on us (that is what some tests check)
    done += static_cast<std::size_t>(n);
  }
}
std::string header(int rank, int ranks = 4) {
  return "{\"format\":\"ringlab-trace\",\"version\":1,\"ranks\":" + std::to_string(ranks) +
         ",\"program\":\"lesson_05\",\"args\":\"\",\"clock\":\"us\",\"rank\":" + std::to_string(rank) + "}\n";
}
std::string event(int rank, int peer = 1) {
  trace::Event e;
  e.rank = rank;
  e.op = trace::Op::send;
  e.peer = peer;
  e.coll = "ring_allreduce";
  e.call = 0;
  e.phase = "reduce-scatter";
  e.step = 0;
  e.chunk = rank;
  return trace::encode(e) + "\n";
}
// Polls the server into the session until `until` holds or two seconds pass.
template <class F>
bool pump(Server& server, Session& s, F until) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (std::chrono::steady_clock::now() < deadline) {
    s.take(server.poll(20));
    if (until()) return true;
  }
  return false;
}
bool has_note(const Session& s, const std::string& text) {
  for (const auto& n : s.notes())
    if (n.find(text) != std::string::npos) return true;
  return false;
}
}  // namespace

TEST_CASE("the server listens on 127.0.0.1 by default and refuses a bad address") {
  Server s;
  Server::Options o;
  o.port = 0;
  std::string error;
  REQUIRE(s.listen(o, &error));
  CHECK(s.address() == "127.0.0.1");
  CHECK(s.port() > 0);
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
  Server::Options o;
  o.port = 0;
  REQUIRE(server.listen(o, nullptr));
  Session s;
  int fds[4];
  for (int r = 0; r < 4; ++r) {
    fds[r] = connect_to(server.port());
    send_text(fds[r], header(r) + event(r, (r + 1) % 4) + event(r, (r + 1) % 4));
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
  Server::Options o;
  o.port = 0;
  o.max_frame = 64 * 1024;
  REQUIRE(server.listen(o, nullptr));
  Session s;
  const int good = connect_to(server.port());
  send_text(good, header(0, 2) + event(0));
  REQUIRE(pump(server, s, [&] { return s.total_events() == 1; }));

  // Not a ringlab stream at all: refused before any header.
  const int junk = connect_to(server.port());
  send_text(junk, "GET / HTTP/1.1\r\n\r\n");
  REQUIRE(pump(server, s, [&] { return has_note(s, "not a ringlab trace stream"); }));

  // A good header, then garbage lines: each refused, the connection stays, good lines pass.
  const int noisy = connect_to(server.port());
  send_text(noisy, header(1, 2) + "{{{ garbage\n" + "{\"rank\":1,\"op\":\"warp\",\"t0\":0,\"t1\":0}\n" +
                       event(0) + event(1, 0));
  REQUIRE(pump(server, s, [&] { return s.total_events() == 2; }));
  CHECK(has_note(s, "rank 1: frame refused: event is not a JSON object"));
  CHECK(has_note(s, "unknown op 'warp'"));
  CHECK(has_note(s, "event of rank 0 on rank 1's connection"));

  // A frame over the limit: refused and that connection closed.
  const int big = connect_to(server.port());
  send_text(big, header(1, 2) + std::string(200 * 1024, 'x'));
  REQUIRE(pump(server, s, [&] { return has_note(s, "frame longer than 65536 bytes refused"); }));

  // Still serving: the first client's next event arrives.
  send_text(good, event(0));
  REQUIRE(pump(server, s, [&] { return s.total_events() == 3; }));
  for (int fd : {good, junk, noisy, big}) close(fd);
  REQUIRE(pump(server, s, [&] { return server.connections() == 0; }));
}

TEST_CASE("playback steps, clamps, plays to the end and follows a live run") {
  Playback p;
  p.step(+1, 8);
  CHECK(p.pos == Approx(1.5));
  p.step(-5, 8);
  CHECK(p.pos == Approx(0.5));
  p.step(+100, 8);
  CHECK(p.pos == Approx(7.5));
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
  for (int i = 0; i < 200 && l.running(); ++i) {
    l.poll();
    usleep(10000);
  }
  l.poll();
  CHECK_FALSE(l.running());
  CHECK(l.exit_code() == 3);
  CHECK(l.output().find("hello from the run") != std::string::npos);
  Launcher missing;
  REQUIRE(missing.start({"/nonexistent/program"}, &error));
  for (int i = 0; i < 200 && missing.running(); ++i) {
    missing.poll();
    usleep(10000);
  }
  missing.poll();
  CHECK(missing.exit_code() == 127);
}
