// The value departure (value_departure.hpp): a traced run whose messages carry what the schedule
// says gets no sentence; the first message that carries something else is named, with what it
// holds as a sum of the inputs or as a message received before; with every message right, a
// result chunk that is wrong is named. Events are made here from the schedule, no MPI.
#include <string>
#include <vector>

#include "catch.hpp"
#include "ringlab/base/chunks.hpp"
#include "ringlab/check/value_departure.hpp"

using ringlab::Schedule;
using ringlab::trace::Event;
using ringlab::trace::Op;

namespace {
bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Rank k's input: element i is 100 k + 7 i + 1, no two sums of different ranks alike.
std::vector<std::vector<double>> inputs_of(int n, std::size_t count) {
  std::vector<std::vector<double>> in(static_cast<std::size_t>(n), std::vector<double>(count));
  for (int k = 0; k < n; ++k)
    for (std::size_t i = 0; i < count; ++i) in[static_cast<std::size_t>(k)][i] = 100.0 * (k + 1) * (k + 1) + 7.0 * i + 1;
  return in;
}

std::vector<double> values(const std::vector<std::vector<double>>& in, const std::vector<int>& m, int n, int chunk) {
  const std::size_t count = in.front().size();
  const ringlab::Chunk c = chunk < 0 ? ringlab::Chunk{0, count} : ringlab::chunk_of(count, n, chunk);
  std::vector<double> v(c.count, 0.0);
  for (std::size_t k = 0; k < m.size(); ++k)
    for (std::size_t i = 0; i < c.count; ++i) v[i] += m[k] * in[k][c.offset + i];
  return v;
}

// The run that follows the schedule, values included: every send carries what the schedule says,
// every receive what its partner sent, every rank ends with the result.
std::vector<Event> run_of(const Schedule& s, const std::vector<std::vector<double>>& in) {
  std::vector<Event> events;
  double t = 0;
  std::size_t send = 0;
  for (const auto& x : s.transfers) {
    Event e;
    e.rank = x.rank, e.op = x.op, e.peer = x.peer, e.chunk = x.chunk, e.phase = x.phase, e.step = x.step;
    e.t0 = e.t1 = t++;
    if (x.op == Op::send) e.values = values(in, s.carries[send++], s.ranks, x.chunk);
    events.push_back(e);
  }
  for (auto& e : events)  // a receive holds its partner's message
    if (e.op == Op::recv)
      for (const auto& f : events)
        if (f.op == Op::send && f.rank == e.peer && f.peer == e.rank && f.phase == e.phase && f.step == e.step)
          e.values = f.values;
  for (int r = 0; r < s.ranks; ++r) {
    Event end;
    end.rank = r, end.op = Op::end, end.t0 = end.t1 = t++;
    end.values = values(in, s.result, s.ranks, -1);
    events.push_back(end);
  }
  return events;
}

Event& send_of(std::vector<Event>& events, int rank, const std::string& phase, int step) {
  for (auto& e : events)
    if (e.rank == rank && e.op == Op::send && e.phase == phase && e.step == step) return e;
  FAIL("no such send");
  return events.front();
}
}  // namespace

TEST_CASE("a run whose every message and result is right has no value departure") {
  for (int n : {2, 3, 4}) {
    const auto in = inputs_of(n, 10);
    const Schedule ring = ringlab::ring_allreduce_schedule(n);
    CHECK(ringlab::first_value_departure(ring, run_of(ring, in), in).empty());
    const Schedule tree = ringlab::binomial_tree_schedule(n, n - 1);
    CHECK(ringlab::first_value_departure(tree, run_of(tree, in), in).empty());
  }
}

TEST_CASE("a send of the input where the running sum belongs is named with what it lacks") {
  const int n = 3;
  const auto in = inputs_of(n, 9);
  const Schedule ring = ringlab::ring_allreduce_schedule(n);
  auto events = run_of(ring, in);
  // Rank 1, reduce-scatter step 1, sends chunk 0: the ring's message holds ranks 0 and 1's inputs.
  send_of(events, 1, "reduce-scatter", 1).values = values(in, {0, 1, 0}, n, 0);
  const auto text = ringlab::first_value_departure(ring, events, in);
  CHECK(has(text, "reduce-scatter step 1: rank 1 sent chunk 0 to rank 2 holding rank 1's input alone, where the ring "
                  "sends the inputs of ranks 0 and 1 summed there: part of it is missing — one possibility is that "
                  "what arrived at a step before was not added"));
  CHECK(has(text, "That is your reduce-scatter hole."));
}

TEST_CASE("a message that is a sum of inputs and, as it arrived, a message the sender received is named so") {
  const int n = 3;
  const auto in = inputs_of(n, 9);
  const Schedule ring = ringlab::ring_allreduce_schedule(n);
  auto events = run_of(ring, in);
  // Rank 2's allgather step 0 sends chunk 0 from the scratch its last reduce-scatter receive
  // landed in: ranks 0 and 1's inputs, without its own.
  send_of(events, 2, "allgather", 0).values = values(in, {1, 1, 0}, n, 0);
  const auto text = ringlab::first_value_departure(ring, events, in);
  INFO(text);
  CHECK(has(text, "allgather step 0: rank 2 sent chunk 0 to rank 0 holding the inputs of ranks 0 and 1 summed, where "
                  "the ring sends every rank's input once (the full sum) there: that is what rank 2 received in "
                  "reduce-scatter step 1 (from rank 1), as it arrived — one possibility is that the send reads the "
                  "memory that message landed in (a scratch)"));
  CHECK_FALSE(has(text, "part of it is missing"));
}

TEST_CASE("a message that is an earlier message again is named as such") {
  const int n = 3;
  const auto in = inputs_of(n, 9);
  const Schedule ring = ringlab::ring_allreduce_schedule(n);
  auto events = run_of(ring, in);
  // Rank 0's allgather step 1 sends what it received in allgather step 0... of another chunk: make
  // it send exactly the message it received in reduce-scatter step 1 (same size: 3 elements each).
  std::vector<double> earlier;
  for (const auto& e : events)
    if (e.rank == 0 && e.op == Op::recv && e.phase == "reduce-scatter" && e.step == 1) earlier = e.values;
  REQUIRE(earlier.size() == 3);
  earlier[0] += 0.5;  // (no sum of inputs: only the message explains it)
  for (auto& e : events)
    if (e.rank == 0 && e.op == Op::recv && e.phase == "reduce-scatter" && e.step == 1) e.values = earlier;
  send_of(events, 0, "allgather", 1).values = earlier;
  const auto text = ringlab::first_value_departure(ring, events, in);
  CHECK(has(text, "allgather step 1: rank 0 sent chunk 0 to rank 1 holding what rank 0 received in reduce-scatter "
                  "step 1 (from rank 2) — a message of an earlier step, where the ring sends every rank's input once"));
}

TEST_CASE("every message right, a result chunk wrong: the chunk and where its value arrives") {
  const int n = 2;
  const auto in = inputs_of(n, 6);
  const Schedule ring = ringlab::ring_allreduce_schedule(n);
  auto events = run_of(ring, in);
  for (auto& e : events)  // rank 0's chunk 0 [0, 3) never got the finished sum: 0 there
    if (e.rank == 0 && e.op == Op::end) std::fill(e.values.begin(), e.values.begin() + 3, 0.0);
  const auto text = ringlab::first_value_departure(ring, events, in);
  CHECK(has(text, "every message carried what the ring sends, but rank 0 ends with chunk 0 holding no input at all "
                  "(0), where it should hold every rank's input once (the full sum), as received in allgather step 0"));
}

TEST_CASE("a result chunk that holds the sum and more says so: an add where a copy belongs") {
  const int n = 2;
  const auto in = inputs_of(n, 6);
  const Schedule ring = ringlab::ring_allreduce_schedule(n);
  auto events = run_of(ring, in);
  for (auto& e : events)  // rank 0's chunk 0: the full sum plus rank 0's own input again
    if (e.rank == 0 && e.op == Op::end)
      for (std::size_t i = 0; i < 3; ++i) e.values[i] += in[0][i];
  const auto text = ringlab::first_value_departure(ring, events, in);
  CHECK(has(text, "rank 0 ends with chunk 0 holding rank 0's input twice and rank 1's once, where it should hold "
                  "every rank's input once (the full sum), as received in allgather step 0: that and more — one "
                  "possibility is that what arrived was added to what the buffer already held"));
  CHECK_FALSE(has(text, "copied out of the landing buffer"));
}

TEST_CASE("a result that is what arrived plus what the buffer held before the call: an add where a copy belongs") {
  const int n = 3;
  const auto in = inputs_of(n, 4);
  const Schedule tree = ringlab::binomial_tree_schedule(n, 0);
  auto events = run_of(tree, in);
  const std::vector<double> before{5003, 5, 17, 29};  // rank 1's buffer before the broadcast: no input
  Event begin;
  begin.rank = 1, begin.op = Op::begin, begin.t0 = begin.t1 = -1, begin.values = before;
  events.insert(events.begin(), begin);
  for (auto& e : events)  // rank 1 added what arrived (rank 0's input) to what it held
    if (e.rank == 1 && e.op == Op::end)
      for (std::size_t i = 0; i < 4; ++i) e.values[i] = in[0][i] + before[i];
  const auto text = ringlab::first_value_departure(tree, events, in);
  CHECK(has(text, "rank 1 ends with its buffer holding values that are no sum of the inputs, where it should hold "
                  "rank 0's input alone, as received in round 0 (root 0): that is what arrived from rank 0 in round 0 "
                  "(root 0) plus what the buffer held before the call, element by element — what arrived was added "
                  "to the buffer, where it belongs in place of what was there."));
  // What it held before, unchanged: what arrived did not end up in it.
  for (auto& e : events)
    if (e.rank == 1 && e.op == Op::end) e.values = before;
  CHECK(has(ringlab::first_value_departure(tree, events, in),
            "that is what the buffer held before the call, unchanged — what arrived from rank 0 in round 0 (root 0) "
            "did not end up in it"));
}

TEST_CASE("a result scaled at the end is said as a factor of the right one, a result of 0 as 0 with two readings") {
  const int n = 4;
  const auto in = inputs_of(n, 8);
  const Schedule ring = ringlab::ring_allreduce_schedule(n);
  // The run that follows the schedule, every rank's final buffer then multiplied by k.
  auto ends_times = [&](double k) {
    auto events = run_of(ring, in);
    for (auto& e : events)
      if (e.op == Op::end)
        for (double& v : e.values) v *= k;
    return ringlab::first_value_departure(ring, events, in);
  };
  const auto text = ends_times(1.0 / n);  // every rank divides its finished buffer by n
  INFO(text);
  CHECK(has(text, "rank 0 ends with chunk 0 holding values that are no sum of the inputs, where it should hold every "
                  "rank's input once (the full sum), as received in allgather step 0: 1/n = 1/4 times that everywhere "
                  "— one possibility is that the buffer was scaled after its last step"));
  CHECK_FALSE(has(text, "copied out of the landing buffer"));
  const auto zero_text = ends_times(0);  // in integers 1/n is 0: every rank's buffer ends 0
  INFO(zero_text);
  CHECK(has(zero_text, "holding no input at all (0), where it should hold every rank's input once (the full sum), as "
                       "received in allgather step 0: 0 everywhere — one possibility is that nothing was written there; "
                       "another, that it was scaled by a factor that is 0"));
  CHECK_FALSE(has(zero_text, "part of it is missing"));
}
