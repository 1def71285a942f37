// The visualizer core with no display: reading traces (good, bad, big) and replaying a real
// lesson-05 ring trace step by step.
#include <cstdlib>
#include <fstream>
#include <algorithm>
#include <string>

#include "catch.hpp"
#include "viz/session.hpp"
#include "viz/trace_source.hpp"

using namespace ringlab;
using namespace ringlab::viz;

namespace {
std::string header_line(int ranks, int version = 1) {
  return "{\"format\":\"ringlab-trace\",\"version\":" + std::to_string(version) +
         ",\"ranks\":" + std::to_string(ranks) + ",\"program\":\"t\",\"args\":\"\",\"clock\":\"us\"}\n";
}

// The trace a real run of lesson 05 wrote (made by the fixture test before this one runs).
LoadedTrace real_trace(const char* env) {
  const char* path = std::getenv(env);
  REQUIRE(path != nullptr);
  LoadedTrace t = load_trace_file(path);
  INFO("trace " << path << ": " << t.error);
  REQUIRE(t.ok());
  return t;
}

int wrap(int i, int n) { return ((i % n) + n) % n; }

trace::Event ev(int rank, trace::Op op, int peer = -1, const char* phase = "", int step = -1, int chunk = -1,
                std::uint64_t bytes = 0, std::uint64_t count = 0) {
  trace::Event e;
  e.rank = rank, e.op = op, e.peer = peer, e.phase = phase, e.step = step, e.chunk = chunk, e.bytes = bytes;
  e.count = count, e.dtype = count ? "float" : "";
  return e;
}
}  // namespace

TEST_CASE("a trace with a bad header, an unknown version or nothing in it is refused with a reason") {
  CHECK(parse_trace("").error.find("empty") != std::string::npos);
  CHECK(parse_trace("hello world\n").error.find("header") != std::string::npos);
  CHECK(parse_trace("{\"format\":\"other\"}\n").error.find("not a ringlab trace") != std::string::npos);
  const LoadedTrace v2 = parse_trace(header_line(4, 2));
  CHECK_FALSE(v2.ok());
  CHECK(v2.error.find("version 2") != std::string::npos);
  CHECK(parse_trace(header_line(65)).error.find("1 to 64") != std::string::npos);
  CHECK(parse_trace(std::string("\x00\xff\xfe binary", 10)).error.find("header") != std::string::npos);
  CHECK(parse_trace(std::string(2 << 20, 'x')).error.find("1 MiB") != std::string::npos);
  CHECK(load_trace_file("/nonexistent/ring.trace").error.find("cannot open") != std::string::npos);
}

TEST_CASE("garbage and truncated event lines are skipped with a note, the good ones kept") {
  std::string text = header_line(2);
  text += "{\"rank\":0,\"op\":\"send\",\"peer\":1,\"t0\":1,\"t1\":2}\n";
  text += "not json at all\n";
  text += "{\"rank\":0,\"op\":\"teleport\",\"t0\":1,\"t1\":2}\n";
  text += "{\"rank\":7,\"op\":\"send\",\"t0\":1,\"t1\":2}\n";           // rank outside the run
  text += "{\"rank\":1,\"op\":\"recv\",\"peer\":\"zero\",\"t0\":1}\n";  // wrong type
  text += "{\"rank\":1,\"op\":\"recv\",\"peer\":0,\"t0\":3,\"t1\":4}\n";
  text += "{\"rank\":1,\"op\":\"recv\",\"pe";  // cut off mid-line: a truncated file
  const LoadedTrace t = parse_trace(text);
  REQUIRE(t.ok());
  CHECK(t.events.size() == 2);
  CHECK(t.skipped == 5);
  REQUIRE(t.notes.size() == 5);
  CHECK(t.notes[0].find("line 3") != std::string::npos);
  CHECK(t.notes[1].find("unknown op 'teleport'") != std::string::npos);
  CHECK(t.notes[4].find("truncated") != std::string::npos);
  // The session keeps the run and reports the problems.
  Session s;
  const std::string path = "viz_test_truncated.trace";
  std::ofstream(path) << text;
  CHECK(s.open_file(path));
  CHECK(s.current()->timeline.event_count() == 2);
  REQUIRE(s.notes().size() == 1);  // one note with the count and the first reason
  CHECK(s.notes()[0] == path + ": 5 bad lines skipped (first: " + t.notes[0] + ")");
  CHECK_FALSE(s.open_file("/nonexistent.trace"));
  CHECK(s.runs().size() == 1);
}

TEST_CASE("a file whose event lines are all bad is refused in one line, not opened empty") {
  std::string text = header_line(2);
  for (int i = 0; i < 50; ++i) text += "\x13\x37 garbage " + std::to_string(i) + "\n";
  const LoadedTrace t = parse_trace(text);
  CHECK_FALSE(t.ok());
  CHECK(t.error == "no readable event: all 50 event lines are bad (first: " + t.notes[0] + ")");
  CHECK(t.notes[0].rfind("line 2: ", 0) == 0);
  // A header and no events at all is a run that did nothing: it opens.
  CHECK(parse_trace(header_line(2)).ok());
  Session s;
  const std::string path = "viz_test_corrupt.trace";
  std::ofstream(path) << text;
  CHECK_FALSE(s.open_file(path));
  CHECK(s.runs().empty());
  REQUIRE(s.notes().size() == 1);
  CHECK(s.notes()[0] == path + ": " + t.error);
}

TEST_CASE("the timeline replays a real 4-rank ring allreduce: every cell holds the expected partial sum") {
  // lesson_05 --schedule --count 8 --type int32: rank r's element i starts as 10(r+1)+i.
  const LoadedTrace t = real_trace("RINGLAB_VIZ_RING_TRACE");
  const int n = t.header->ranks;
  REQUIRE(n == 4);
  Timeline tl(n);
  for (const auto& e : t.events) tl.add(e);
  const auto& frames = tl.frames();
  // start, reduce-scatter 0..n-2, allgather 0..n-2, end
  REQUIRE(frames.size() == static_cast<std::size_t>(2 * (n - 1) + 2));
  CHECK(frames.front().kind == Frame::Kind::start);
  CHECK(frames.back().kind == Frame::Kind::end);
  auto input = [&](int r, int i) { return 10.0 * (r + 1) + i; };
  const int count = 8, per = count / n;

  for (int s = 0; s < n - 1; ++s) {
    // Who sends what at reduce-scatter step s: rank r sends chunk (r - s) mod n to r + 1.
    const Frame& f = frames[1 + s];
    CHECK(f.phase == "reduce-scatter");
    CHECK(f.step == s);
    REQUIRE(f.moves.size() == static_cast<std::size_t>(n));
    for (int m : f.moves) {
      const Move& mv = tl.moves()[m];
      CHECK(mv.dst == (mv.src + 1) % n);
      CHECK(mv.chunk == wrap(mv.src - s, n));
    }
    // After step s, rank r's chunk (r - s - 1) holds the sum over ranks r-s-1 .. r.
    const Buffers b = tl.buffers_after(1 + s);
    REQUIRE(b.per_element);
    REQUIRE(b.rows.size() == static_cast<std::size_t>(n));
    for (int r = 0; r < n; ++r) {
      const int c = wrap(r - s - 1, n);
      for (int i = c * per; i < (c + 1) * per; ++i) {
        double expected = 0;
        for (int k = 0; k <= s + 1; ++k) expected += input(wrap(r - k, n), i);
        INFO("step " << s << " rank " << r << " element " << i);
        CHECK(b.rows[r][i].value == expected);
        CHECK(b.rows[r][i].contributions() == s + 2);
      }
    }
  }
  for (int s = 0; s < n - 1; ++s) {
    const Frame& f = frames[n + s];
    CHECK(f.phase == "allgather");
    for (int m : f.moves) CHECK(tl.moves()[m].chunk == wrap(tl.moves()[m].src + 1 - s, n));
  }
  // After the last allgather step (before the end event's values): every element is the full sum.
  const Buffers last = tl.buffers_after(2 * (n - 1));
  for (int r = 0; r < n; ++r)
    for (int i = 0; i < count; ++i) {
      double sum = 0;
      for (int k = 0; k < n; ++k) sum += input(k, i);
      CHECK(last.rows[r][i].value == sum);
      CHECK(last.rows[r][i].contributions() == n);
    }
  // The scrubber at the middle of reduce-scatter step 1 shows the state before that step.
  const Buffers mid = tl.buffers_at(2.5);
  CHECK(mid.rows[1][0].value == input(0, 0) + input(1, 0));
  CHECK(mid.rows[1][0].contributions() == 2);
  CHECK(tl.moves_at(2.5).size() == static_cast<std::size_t>(n));
  CHECK(tl.moves_at(2.5)[0].frac == Approx(0.5));
  // Time mode finds the same frames.
  CHECK(tl.frame_at_time(frames[3].t0) >= 3);
  CHECK(tl.frame_at_time(tl.t_min() - 1) == 0);
}

TEST_CASE(
    "the timeline replays every call of a real lesson-05 check run, ring and naive, to the end values") {
  // lesson_05 --count 8 --type int32 on 3 ranks: ring, naive and MPI, in-place and out-of-place.
  const LoadedTrace t = real_trace("RINGLAB_VIZ_CHECK_TRACE");
  const int n = t.header->ranks;
  Timeline tl(n);
  for (const auto& e : t.events) tl.add(e);
  int calls = 0;
  std::vector<std::string> colls;
  const auto& frames = tl.frames();
  for (std::size_t f = 0; f + 1 < frames.size(); ++f) {
    if (frames[f + 1].kind != Frame::Kind::end) continue;
    ++calls;
    colls.push_back(frames[f].coll);
    // The replay (begin values, recvs, reduces) must reach what every rank's end event says.
    const Buffers before_end = tl.buffers_after(static_cast<int>(f));
    const Buffers at_end = tl.buffers_after(static_cast<int>(f + 1));
    for (int r = 0; r < n; ++r)
      for (std::size_t i = 0; i < at_end.rows[r].size(); ++i) {
        INFO(frames[f].label() << " rank " << r << " element " << i);
        CHECK(before_end.rows[r][i].has_value);
        CHECK(before_end.rows[r][i].value == at_end.rows[r][i].value);
        CHECK(before_end.rows[r][i].contributions() == n);
      }
  }
  // ring and naive (and the kit's fast ring), out-of-place and in-place; MPI's own is not traced
  CHECK(calls >= 4);
  CHECK(std::count(colls.begin(), colls.end(), "ring_allreduce") == 2);
  CHECK(std::count(colls.begin(), colls.end(), "naive_allreduce") == 2);
  // The naive shape: every transfer has rank 0 at one end.
  for (const auto& m : tl.moves())
    if (m.phase == "reduce" || m.phase == "broadcast") CHECK((m.src == 0 || m.dst == 0));
}

TEST_CASE("events without a begin, odd chunk indices or unmatched transfers replay without harm") {
  // What a viewer sees when it joins a run late, or a rank disconnects mid-collective.
  Timeline tl(2);
  tl.add(ev(0, trace::Op::send, 1, "reduce-scatter", 0, 0, 8));
  tl.add(ev(1, trace::Op::recv, 0, "reduce-scatter", 0, 1, 8));
  tl.add(ev(1, trace::Op::reduce, -1, "", -1, 1, 8));
  tl.add(ev(1, trace::Op::recv, 0, "allgather", 0, 7, 8));  // no matching send, chunk out of range
  tl.add(ev(0, trace::Op::begin, -1, "", -1, -1, 0, 3));    // a begin with 3 elements but no values
  tl.add(ev(0, trace::Op::copy, -1, "", -1, 1, 8));
  tl.add(ev(0, trace::Op::send, 1, "allgather", 1, 5, 8));  // chunk beyond the ranks
  REQUIRE_FALSE(tl.frames().empty());
  for (double pos = 0; pos < tl.frames().size() + 1; pos += 0.5) {
    const Buffers b = tl.buffers_at(pos);
    for (const auto& row : b.rows) CHECK(row.size() <= 3);
    CHECK(tl.moves_at(pos).size() <= 2);
  }
  CHECK(tl.moves().size() == 2);  // first send with first recv, second with second (MPI order)
}

TEST_CASE("64 ranks and 100k events load, replay and scrub") {
  // A synthetic ring allreduce with the kit's schedule, encoded exactly as lessons write it.
  const int n = 64, calls = 5;
  std::string text = header_line(n);
  std::size_t events = 0;
  double t = 0;
  for (int call = 0; call < calls; ++call) {
    auto line = [&](trace::Event e) {
      e.call = e.op == trace::Op::reduce ? -1 : call;
      e.coll = e.op == trace::Op::reduce ? "" : "ring_allreduce";
      e.t0 = t, e.t1 = t += 0.5;
      text += trace::encode(e) + "\n";
      ++events;
    };
    for (int r = 0; r < n; ++r) line(ev(r, trace::Op::begin, -1, "", -1, -1, 0, 4096));
    for (const char* phase : {"reduce-scatter", "allgather"})
      for (int s = 0; s < n - 1; ++s)
        for (int r = 0; r < n; ++r) {
          const bool rs = phase[0] == 'r';
          const int out = rs ? wrap(r - s, n) : wrap(r + 1 - s, n),
                    in = rs ? wrap(r - s - 1, n) : wrap(r - s, n);
          line(ev(r, trace::Op::send, (r + 1) % n, phase, s, out, 256));
          line(ev(r, trace::Op::recv, (r + n - 1) % n, phase, s, in, 256));
          if (rs) line(ev(r, trace::Op::reduce, -1, "", -1, in, 256));
        }
    for (int r = 0; r < n; ++r) line(ev(r, trace::Op::end, -1, "", -1, -1, 0, 4096));
  }
  REQUIRE(events > 100000);
  const LoadedTrace lt = parse_trace(text);
  REQUIRE(lt.ok());
  REQUIRE(lt.events.size() == events);
  Timeline tl(n);
  for (const auto& e : lt.events) tl.add(e);
  REQUIRE(tl.frames().size() == static_cast<std::size_t>(calls * (2 * (n - 1) + 2)));
  REQUIRE(tl.moves().size() == static_cast<std::size_t>(calls * 2 * (n - 1) * n));
  // Large buffers: one cell per chunk. After reduce-scatter, rank r holds the full chunk r+1.
  const int last_call_start = (calls - 1) * (2 * (n - 1) + 2);
  const Buffers b = tl.buffers_after(last_call_start + n - 1);
  CHECK_FALSE(b.per_element);
  for (int r = 0; r < n; ++r) {
    CHECK(b.rows[r][(r + 1) % n].contributions() == n);
    CHECK(b.rows[r][r].contributions() < n);
  }
  const Buffers end = tl.buffers_after(last_call_start + 2 * (n - 1));
  for (int r = 0; r < n; ++r)
    for (const auto& c : end.rows[r]) CHECK(c.contributions() == n);
  CHECK(tl.moves_at(1e9).empty());  // beyond the end: the end frame, nothing moving
}
