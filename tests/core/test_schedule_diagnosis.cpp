// The schedule diagnosis (schedule_diagnosis.hpp): the reference schedules hold what the lessons'
// pictures say, and a trace fed as events gets the sentence that names its first departure —
// wrong chunk, wrong peer, a missing or an extra transfer, a step traced under the wrong name —
// while a trace that follows the schedule gets none.
#include <tuple>

#include "catch.hpp"
#include "ringlab/check/schedule_diagnosis.hpp"

using ringlab::Schedule;
using ringlab::trace::Event;
using ringlab::trace::Op;

namespace {
bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }
int count(const std::string& text, const std::string& part) {
  int k = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++k;
  return k;
}

// The events a run that follows `s` exactly records (each rank's in order, t0 counting up).
std::vector<Event> run_of(const Schedule& s) {
  std::vector<Event> events;
  double t = 0;
  for (const auto& x : s.transfers) {
    Event e;
    e.rank = x.rank;
    e.op = x.op;
    e.peer = x.peer;
    e.chunk = x.chunk;
    e.phase = x.phase;
    e.step = x.step;
    e.t0 = e.t1 = t++;
    events.push_back(e);
  }
  return events;
}

Event* find(std::vector<Event>& events, int rank, Op op, const std::string& phase, int step) {
  for (auto& e : events)
    if (e.rank == rank && e.op == op && e.phase == phase && e.step == step) return &e;
  FAIL("no such event");
  return nullptr;
}
}  // namespace

TEST_CASE("the ring's schedule is the lesson's picture") {
  const Schedule s = ringlab::ring_allreduce_schedule(3);
  REQUIRE(s.transfers.size() == 2u * 2 * 2 * 3);  // 2 phases x 2 steps x 3 ranks x (send, recv)
  // reduce-scatter step 1: r0 --chunk 2--> r1, r1 --chunk 0--> r2, r2 --chunk 1--> r0
  std::vector<int> chunks;
  for (const auto& t : s.transfers)
    if (t.phase == "reduce-scatter" && t.step == 1 && t.op == Op::send) chunks.push_back(t.chunk);
  CHECK(chunks == std::vector<int>{2, 0, 1});
  // allgather step 0: r0 --chunk 1--> r1, r1 --chunk 2--> r2, r2 --chunk 0--> r0
  chunks.clear();
  for (const auto& t : s.transfers)
    if (t.phase == "allgather" && t.step == 0 && t.op == Op::send) {
      chunks.push_back(t.chunk);
      CHECK(t.peer == (t.rank + 1) % 3);
    }
  CHECK(chunks == std::vector<int>{1, 2, 0});
}

TEST_CASE("the binomial tree's schedule is the lesson's picture, from any root") {
  const Schedule s = ringlab::binomial_tree_schedule(8, 0);
  std::vector<std::pair<int, int>> round2;
  for (const auto& t : s.transfers)
    if (t.step == 2 && t.op == Op::send) round2.push_back({t.rank, t.peer});
  CHECK(round2 == std::vector<std::pair<int, int>>{{0, 4}, {1, 5}, {2, 6}, {3, 7}});
  // Root 2 on 3 ranks: round 0 2 -> 0, round 1 2 -> 1.
  const Schedule r2 = ringlab::binomial_tree_schedule(3, 2);
  std::vector<std::pair<int, int>> sends;
  for (const auto& t : r2.transfers)
    if (t.op == Op::send) sends.push_back({t.rank, t.peer});
  CHECK(sends == std::vector<std::pair<int, int>>{{2, 0}, {2, 1}});
}

TEST_CASE("a run that follows the schedule has no diagnosis") {
  for (int n : {1, 2, 3, 4, 5}) {
    CHECK(diagnose_schedule(ringlab::ring_allreduce_schedule(n), run_of(ringlab::ring_allreduce_schedule(n)))
              .empty());
    for (int root = 0; root < n; ++root)
      CHECK(diagnose_schedule(ringlab::binomial_tree_schedule(n, root),
                              run_of(ringlab::binomial_tree_schedule(n, root)))
                .empty());
  }
}

TEST_CASE("a run without phase names is compared by peers and chunks alone") {
  const Schedule s = ringlab::ring_allreduce_schedule(4);
  auto events = run_of(s);
  for (auto& e : events) e.phase.clear(), e.step = -1;
  CHECK(diagnose_schedule(s, events).empty());
}

TEST_CASE("a wrong chunk in the reduce-scatter is named at its step, rank and chunk") {
  const Schedule s = ringlab::ring_allreduce_schedule(3);
  auto events = run_of(s);
  find(events, 2, Op::send, "reduce-scatter", 1)->chunk = 0;  // the ring sends chunk (2 - 1) = 1
  const auto text = diagnose_schedule(s, events);
  CHECK(has(text, "reduce-scatter step 1: rank 2 sent chunk 0 to rank 0, expected chunk 1"));
  CHECK(has(text, "the chunk index is wrong"));
  // Which hole, and where the rule is: the message does not give the answer away.
  CHECK(has(text, "That is your reduce-scatter hole; `./ringlab hint 05` gives its rule"));
  CHECK_FALSE(has(text, "mod n"));
}

TEST_CASE("the earliest departure is told, a send before the receive that echoes it") {
  const Schedule s = ringlab::ring_allreduce_schedule(3);
  auto events = run_of(s);
  // Every rank swaps what it sends and where it adds (step 0): the sends are the cause.
  for (int r = 0; r < 3; ++r) {
    auto* send = find(events, r, Op::send, "reduce-scatter", 0);
    auto* recv = find(events, r, Op::recv, "reduce-scatter", 0);
    std::swap(send->chunk, recv->chunk);
  }
  find(events, 1, Op::send, "allgather", 1)->chunk = 2;  // a later one: not told first
  const auto text = diagnose_schedule(s, events);
  CHECK(has(text, "reduce-scatter step 0: rank 0 sent chunk 2 to rank 1, expected chunk 0"));
}

TEST_CASE("a receive into the wrong chunk is named when the sends are right") {
  const Schedule s = ringlab::ring_allreduce_schedule(4);
  auto events = run_of(s);
  find(events, 3, Op::recv, "allgather", 2)->chunk = 0;
  CHECK(has(diagnose_schedule(s, events),
            "allgather step 2: rank 3 received chunk 0 from rank 2, expected chunk 1"));
}

TEST_CASE("a wrong peer is named with the right one") {
  const Schedule s = ringlab::ring_allreduce_schedule(3);
  auto events = run_of(s);
  find(events, 1, Op::send, "reduce-scatter", 0)->peer = 0;  // backwards round the ring
  const auto text = diagnose_schedule(s, events);
  CHECK(
      has(text, "reduce-scatter step 0: rank 1 sent chunk 1 to rank 0, expected rank 2 — the peer is wrong"));
}

TEST_CASE("the broadcast tree: a send to the wrong rank in a round") {
  const Schedule s = ringlab::binomial_tree_schedule(4, 1);  // root 1: v = 0 1 2 3 is rank 1 2 3 0
  auto events = run_of(s);
  find(events, 1, Op::send, "bcast-tree", 1)->peer = 2;  // v + mask with mask 2 is v 2 = rank 3
  const auto text = diagnose_schedule(s, events);
  CHECK(has(text, "round 1 (root 1): rank 1 sent to rank 2, expected rank 3 — the peer is wrong"));
  CHECK(has(text, "That is your binomial tree hole; `./ringlab hint 03` gives its rule"));
  CHECK_FALSE(has(text, "absolute("));
}

TEST_CASE("an extra step is an extra send, counted per peer") {
  const Schedule s = ringlab::ring_allreduce_schedule(3);
  auto events = run_of(s);
  // The reduce-scatter loop runs s < n: rank 0 makes a step 2 as well (before its allgather).
  Event extra = *find(events, 0, Op::send, "reduce-scatter", 1);
  extra.step = 2;
  extra.chunk = 1;
  extra.t0 = extra.t1 = find(events, 0, Op::send, "reduce-scatter", 1)->t0 + 0.5;
  events.push_back(extra);
  const auto text = diagnose_schedule(s, events);
  CHECK(
      has(text, "reduce-scatter step 2: rank 0 sent chunk 1 to rank 1, a send that the ring does not have"));
  CHECK(has(text, "rank 0 sent 5 messages to rank 1 in this call, the ring sends 4"));
  CHECK(has(text, "n - 1 = 2 steps"));
}

TEST_CASE("a step left out is a missing send, counted per peer") {
  const Schedule s = ringlab::ring_allreduce_schedule(3);
  auto events = run_of(s);
  // The allgather loop stops one step short on every rank.
  std::erase_if(events, [](const Event& e) { return e.phase == "allgather" && e.step == 1; });
  const auto text = diagnose_schedule(s, events);
  CHECK(has(text, "allgather step 1: rank 0 never sends chunk 0 to rank 1 — a send is missing"));
  CHECK(has(text, "rank 0 sent 3 messages to rank 1 in this call, the ring sends 4"));
}

TEST_CASE("a missing send in the broadcast tree names the round and the receiver") {
  const Schedule s = ringlab::binomial_tree_schedule(5, 0);
  auto events = run_of(s);
  std::erase_if(events, [](const Event& e) { return e.op == Op::send && e.rank == 0 && e.step == 2; });
  CHECK(has(diagnose_schedule(s, events),
            "round 2 (root 0): rank 0 never sends to rank 4 — a send is missing"));
}

TEST_CASE("a step traced under another name is told as such, with the call to add") {
  const Schedule s = ringlab::ring_allreduce_schedule(3);
  auto events = run_of(s);
  for (auto& e : events)  // no tc.at in the allgather: it keeps the last reduce-scatter step
    if (e.phase == "allgather") e.phase = "reduce-scatter", e.step = 1;
  const auto text = diagnose_schedule(s, events);
  CHECK(has(text,
            "allgather step 0: rank 0 sent chunk 1 to rank 1 as the ring does, but its trace says "
            "reduce-scatter step 1"));
  CHECK(has(text, "tc.at(\"allgather\", s)"));
  CHECK_FALSE(has(text, "swapped"));  // a label carried over from before: the call is missing
}

TEST_CASE("a transfer labelled with a later phase of the schedule is told as labels swapped") {
  const Schedule s = ringlab::parameter_server_schedule(3, 2);
  auto events = run_of(s);
  for (auto& e : events)  // the workers label their push "pull" and their pull "push"
    if (e.rank != 0) e.phase = e.phase == "push" ? "pull" : "push";
  const auto text = diagnose_schedule(s, events);
  CHECK(has(text, "push step 0: rank 1 sent to rank 0 as the parameter server does, but its trace says pull step 0, "
                  "the schedule's other phase: this transfer is the push, so the tc.at labels are swapped or on "
                  "the wrong side of it"));
}

TEST_CASE("a phase with no transfer at all is named as missing") {
  const Schedule s = ringlab::ring_allreduce_schedule(4);
  auto events = run_of(s);
  std::erase_if(events, [](const Event& e) { return e.phase == "allgather"; });
  const auto text = diagnose_schedule(s, events);
  CHECK(has(text, "allgather step 0: rank 0 never sends chunk 1 to rank 1 — the allgather phase is missing"));
  CHECK(has(text, "That is your allgather hole"));
}

TEST_CASE("a tree built from rank 0 whatever the root is named as such") {
  const Schedule root2 = ringlab::binomial_tree_schedule(4, 2);
  const auto text = diagnose_schedule(root2, run_of(ringlab::binomial_tree_schedule(4, 0)));
  CHECK(has(text,
            "every rank sent and received as in the tree from rank 0, but the root is rank 2: count ranks "
            "from the root (v = relative(rank, root, n))"));
  CHECK(has(text, "The first departure: round 0 (root 2): rank 0 sent to rank 1"));
  // Another departure from a tree from root 2 is not that mistake.
  auto events = run_of(root2);
  events.pop_back();
  CHECK_FALSE(has(diagnose_schedule(root2, events), "tree from rank 0"));
}

TEST_CASE("a tree whose send test lets the child v + mask = n through is named as such") {
  // 3 ranks, root 0: in round 1 (mask 2) rank 1 sends to v + mask = 3, which wraps to the root.
  const Schedule s = ringlab::binomial_tree_schedule(3, 0);
  auto events = run_of(s);
  Event extra;
  extra.rank = 1, extra.op = Op::send, extra.peer = 0, extra.phase = "bcast-tree", extra.step = 1;
  extra.t0 = extra.t1 = 100;
  events.push_back(extra);
  const auto text = diagnose_schedule(s, events);
  CHECK(has(text, "every rank sent and received as in a tree whose test before the send lets the child v + mask = n "
                  "through: v + mask = n is no rank, and absolute(n, root, n) wraps round to the root"));
  CHECK(has(text, "The first departure: round 1 (root 0): rank 1 sent to rank 0"));
  // On 4 ranks no child is v + mask = n: that tree is the right one, and no look-alike.
  for (const auto& a : ringlab::binomial_tree_schedule(4, 0).look_alikes) CHECK_FALSE(has(a.what, "v + mask = n"));
}

TEST_CASE("a run that sends nothing at all is told so, with the hole to start with") {
  const auto text = diagnose_schedule(ringlab::ring_allreduce_schedule(3), {});
  CHECK(has(text, "no rank sent or received anything, and the ring makes 12 sends here"));
  CHECK(has(text, "Start with the reduce-scatter hole: `./ringlab hint 05` gives its rule"));
  CHECK_FALSE(has(text, "mod n"));
}

TEST_CASE("a send from a rank the schedule gives no send is an extra send, also without phase names") {
  // Root 0 on 4 ranks: v 3 (rank 3) is a leaf: it receives in round 1 and never sends.
  const Schedule s = ringlab::binomial_tree_schedule(4, 0);
  auto events = run_of(s);
  for (auto& e : events) e.phase.clear(), e.step = -1;
  Event extra;
  extra.rank = 3;
  extra.op = Op::send;
  extra.peer = 0;
  extra.t0 = extra.t1 = 100;
  events.push_back(extra);
  const auto text = diagnose_schedule(s, events);
  CHECK(has(text, "rank 3 sent to rank 0"));
  CHECK(has(text, "an extra send"));
}

// --- hangs against the schedule (compare_hang): the watchdog's reports, made by hand ---------
namespace {
using ringlab::watchdog::Pending;
using ringlab::watchdog::Report;
Report stuck(int rank, bool send, int peer, const std::string& phase, int step) {
  Report r;
  r.rank = rank;
  r.blocked = true;
  r.waits = {Pending{send, peer, 0, 1 << 20}};
  r.phase = phase;
  r.step = step;
  return r;
}
}  // namespace

TEST_CASE("the ring's reduce-scatter adds what it received: an add before the step's receive is named") {
  const Schedule ring = ringlab::ring_allreduce_schedule(3);
  // Each reduce-scatter receive followed by its add into the chunk received: right.
  std::vector<Event> right;
  for (const Event& e : run_of(ring)) {
    right.push_back(e);
    if (e.op == Op::recv && e.phase == "reduce-scatter") {
      Event add = e;
      add.op = Op::reduce, add.peer = -1;
      right.push_back(add);
    }
  }
  CHECK(ringlab::diagnose_schedule(ring, right).empty());
  // Rank 2's add of step 1 moved before its receive of that step.
  std::vector<Event> early = right;
  const auto is = [](int rank, Op op, int step) {
    return [=](const Event& e) { return e.rank == rank && e.op == op && e.phase == "reduce-scatter" && e.step == step; };
  };
  const auto add = std::find_if(early.begin(), early.end(), is(2, Op::reduce, 1));
  const Event moved = *add;
  early.erase(add);
  early.insert(std::find_if(early.begin(), early.end(), is(2, Op::recv, 1)), moved);
  CHECK(ringlab::diagnose_schedule(ring, early) ==
        "reduce-scatter step 1: rank 2 added into chunk 0 before that step's receive (of chunk 0 from rank 1) had "
        "brought anything: it added what the landing buffer held before (the step before's message, or memory never "
        "written). Receive first, then add what arrived. That is your reduce-scatter hole; `./ringlab hint 05` gives "
        "its rule, one hint at a time.");
  SECTION("an add into another chunk there (a step before's, done late) is not blamed") {
    std::vector<Event> late = early;
    std::find_if(late.begin(), late.end(), is(2, Op::reduce, 1))->chunk = 1;
    CHECK(ringlab::diagnose_schedule(ring, late).empty());
  }
}

TEST_CASE("the chain's schedule is lesson 02's picture") {
  const Schedule s = ringlab::chain_schedule(3);
  REQUIRE(s.transfers.size() == 4);
  CHECK(s.transfers[0].rank == 0);
  CHECK(s.transfers[0].op == Op::send);
  CHECK(s.transfers[0].peer == 1);
  CHECK(s.transfers[1].op == Op::recv);
  CHECK(s.transfers[1].peer == 0);
  CHECK(s.transfers[1].step == 1);  // the chain's step is the rank's place in it
  CHECK(s.transfers[3].peer == 1);
  CHECK(ringlab::diagnose_schedule(s, run_of(s)).empty());
}

TEST_CASE("a hung receive from the wrong parent is named with the tree's parent and the hole") {
  const Schedule tree = ringlab::binomial_tree_schedule(4, 0);
  const auto c = ringlab::compare_hang(tree, {stuck(0, true, 2, "bcast-tree", 1), stuck(2, false, 1, "bcast-tree", 1),
                                              stuck(3, false, 2, "bcast-tree", 1)});
  CHECK(c.departs);
  CHECK(has(c.text, "diagnosis: round 1 (root 0): rank 2 waits to receive from rank 1; the binomial tree has rank 2 "
                    "receive from rank 0 there (its parent): the peer is wrong. That is your binomial tree hole"));
  CHECK(has(c.text, "rank 3 waits to receive from rank 2; the binomial tree has rank 3 receive from rank 1 there"));
  CHECK(has(c.text, "round 1 (root 0): rank 0 waits to send to rank 2, as the binomial tree has it."));
  CHECK_FALSE(has(c.text, "v - mask"));  // what happened and where, not the rule
}

TEST_CASE("a hung call the schedule has, whose partner is in no call: the partner's call is missing") {
  const Schedule chain = ringlab::chain_schedule(3);
  const auto c = ringlab::compare_hang(chain, {stuck(1, false, 0, "forward", 1), stuck(2, false, 1, "forward", 2)});
  CHECK(c.departs);  // no blocked call is wrong, but the evidence names the call that never came
  CHECK(has(c.text, "diagnosis: forward step 1: rank 1 waits to receive from rank 0, as the chain has it; the chain has "
                    "rank 0 send to rank 1 in forward step 0 (the rank after it), but rank 0 is in no point-to-point "
                    "call: it never made that send (or made it to another rank) — look at which ranks make it (the "
                    "condition around it) and to whom. That is your send hole"));
  CHECK(has(c.text, "  forward step 2: rank 2 waits to receive from rank 1, as the chain has it.\n"));
  CHECK_FALSE(has(c.text, "the peers are right"));
  CHECK(count(c.text, "rank 1 waits to receive from rank 0") == 1);  // said once, as the diagnosis
}

TEST_CASE("a partner that already returned from the collective left before its call: a loop left early") {
  // The tree on 4 ranks, round 1: rank 3 waits for rank 1, its parent, which received in round 0 and
  // left (a break after the receive): it waits in a later call every rank makes.
  const Schedule tree = ringlab::binomial_tree_schedule(4, 0);
  Report waiting = stuck(3, false, 1, "bcast-tree", 1);
  waiting.scope = 0, waiting.scopes = 1;
  Report left;
  left.rank = 1, left.collective = "comm.all_ok", left.scope = -1, left.scopes = 1;
  const auto c = ringlab::compare_hang(tree, {waiting, left});
  CHECK(has(c.text, "the binomial tree has rank 1 send to rank 3 in round 1 (root 0) (its child), but rank 1 has "
                    "already returned from the binomial tree (it waits in comm.all_ok): it left before making that "
                    "send — one possibility is a loop it leaves too early (a break or return once it has done an "
                    "earlier call); another, that send inside a condition that leaves this rank out."));
  SECTION("one that returned before its first call: the call is missing there, a return or a condition") {
    // The chain on 2 ranks: rank 0 sends first of all; it left chain_sum without sending.
    const Schedule chain = ringlab::chain_schedule(2);
    Report receiver = stuck(1, false, 0, "forward", 1);
    receiver.scope = 0, receiver.scopes = 1;
    Report gone;
    gone.rank = 0, gone.collective = "comm.gather_strings", gone.scope = -1, gone.scopes = 1;
    const auto early = ringlab::compare_hang(chain, {receiver, gone});
    CHECK(has(early.text, "but rank 0 has already returned from the chain (it waits in comm.gather_strings): it left "
                          "without making that send, its first call there — one possibility is a return before it "
                          "(the function ends early on this rank); another, that send inside a condition that leaves "
                          "this rank out, or no send at all."));
  }
  SECTION("one that never started the collective is not said to have returned from it") {
    left.scopes = 0;
    const auto never = ringlab::compare_hang(tree, {waiting, left});
    CHECK(has(never.text, "but rank 1 is in no point-to-point call: it never made that send"));
    CHECK_FALSE(has(never.text, "returned"));
  }
}

TEST_CASE("a partner inside the collective but in a barrier: the barrier stands where a transfer belongs") {
  // The parameter server on 2 ranks, pull step 0: the server sends; the worker, after its push,
  // waits in comm.barrier, which cannot end while the server waits for the worker's receive.
  const Schedule ps = ringlab::parameter_server_schedule(2, 1);
  Report server = stuck(0, true, 1, "pull", 0);
  server.scope = 0, server.scopes = 1;
  Report worker;
  worker.rank = 1, worker.collective = "comm.barrier", worker.scope = 0, worker.scopes = 1;
  worker.phase = "push", worker.step = 0;
  const auto c = ringlab::compare_hang(ps, {server, worker});
  CHECK(has(c.text, "but rank 1 is in no point-to-point call: it waits in comm.barrier, a call every rank makes, which "
                    "ends only when every rank is in it, and rank 0 waits for this transfer first — one possibility "
                    "is comm.barrier called before that receive (where the schedule has that receive come first), or "
                    "called by only some of the ranks."));
  CHECK_FALSE(has(c.text, "look at which ranks make it"));
  CHECK_FALSE(has(c.text, "returned"));
  // The barrier may stand in any hole: the message names none (the one that fails alone says which).
  CHECK_FALSE(has(c.text, "That is your"));
}

TEST_CASE("the parameter server's schedule: push, then pull, every step") {
  const Schedule ps = ringlab::parameter_server_schedule(3, 2);
  REQUIRE(ps.transfers.size() == 16);  // 2 steps x (2 pushes + 2 pulls) x both ends
  CHECK(ps.transfers[0].rank == 0);
  CHECK(ps.transfers[0].op == Op::recv);
  CHECK(ps.transfers[0].peer == 1);
  CHECK(ps.transfers[2].rank == 1);
  CHECK(ps.transfers[2].op == Op::send);
  CHECK(ps.transfers[2].hole == "worker step");
  CHECK(ps.transfers[4].phase == "pull");
  CHECK(ps.transfers[15].step == 1);
  CHECK(ringlab::diagnose_schedule(ps, run_of(ps)).empty());
}

TEST_CASE("a call made too early is named with the place the schedule has it, later: the order is wrong") {
  const Schedule ps = ringlab::parameter_server_schedule(3, 2);
  const auto c = ringlab::compare_hang(ps, {stuck(0, false, 1, "push", 0), stuck(1, false, 0, "push", 0),
                                            stuck(2, false, 0, "push", 0)});
  CHECK(c.departs);
  CHECK(has(c.text, "diagnosis: push step 0: rank 1 waits to receive from rank 0; the parameter server has rank 1 send "
                    "to rank 0 there (the server), and no receive: the parameter server does not have this call at "
                    "this step. Rank 1 makes this receive in pull step 0, later: its calls are in the wrong order (this "
                    "one comes too early). That is your worker step hole"));
}

TEST_CASE("a partner already past the place of its call skipped it: the order of its calls") {
  const Schedule ps = ringlab::parameter_server_schedule(3, 2);
  // The worker's trace labels moved with its calls: each blocked call is the schedule's, but
  // worker 1 is at the pull while the server still waits for its push.
  const auto c = ringlab::compare_hang(ps, {stuck(0, false, 1, "push", 0), stuck(1, false, 0, "pull", 0),
                                            stuck(2, false, 0, "pull", 0)});
  CHECK(c.departs);
  CHECK(has(c.text, "diagnosis: push step 0: rank 0 waits to receive from rank 1, as the parameter server has it; the "
                    "parameter server has rank 1 send to rank 0 in push step 0 (the server), but rank 1 is already at "
                    "pull step 0, past it: it skipped that send, or makes it later — look at the order of its calls. "
                    "That is your worker step hole"));
}

TEST_CASE("a partner past the place of its call, in a later call of the algorithm, left it out") {
  const Schedule ps = ringlab::parameter_server_schedule(2, 2);
  // The server (in its call for step 0) waits to send the parameters; the worker returned from
  // its step-0 call without the pull and now pushes step 1, in its second call.
  Report server = stuck(0, true, 1, "pull", 0), worker = stuck(1, true, 0, "push", 1);
  server.scope = 0, server.scopes = 1;
  worker.scope = 1, worker.scopes = 2;
  const auto c = ringlab::compare_hang(ps, {server, worker});
  CHECK(c.departs);
  CHECK(has(c.text, "but rank 1 is already at push step 1, past it, in a later call of the parameter server: it "
                    "returned from the call that has that receive without making it, so that receive is missing (or "
                    "inside a condition that leaves rank 1 out). That is your worker step hole"));
  // In the same call still, it may make it later: both readings stay.
  worker.scope = 0, worker.scopes = 1;
  CHECK(has(ringlab::compare_hang(ps, {server, worker}).text, "past it: it skipped that receive, or makes it later"));
}

TEST_CASE("a rank that left its last place after a call too many made an extra call there: the first departure") {
  // The worker sent the parameters back after its step-0 pull: the server's push-1 receive took
  // that message, and now both send (push 1 and pull 1) with no receive on either side.
  const Schedule ps = ringlab::parameter_server_schedule(2, 2);
  Report server = stuck(0, true, 1, "pull", 1), worker = stuck(1, true, 0, "push", 1);
  worker.left_phase = "pull", worker.left_step = 0, worker.left_here = 2;
  const auto c = ringlab::compare_hang(ps, {server, worker});
  CHECK(c.departs);
  CHECK(has(c.text, "diagnosis: pull step 0: rank 1 started 2 transfers there before it went on, where the parameter "
                    "server has it make 1 call: one too many — an extra send or receive there, whose message a later "
                    "call of its peer takes in place of its own, so every pairing after it is off by one. That is "
                    "your worker step hole"));
  // What followed is said as it stands, not as a cause of its own.
  CHECK(has(c.text, "push step 1: rank 1 waits to send to rank 0, as the parameter server has it"));
  CHECK_FALSE(has(c.text, "it skipped that receive"));
  // As many calls as the schedule has there: nothing extra is said.
  worker.left_here = 1;
  CHECK_FALSE(has(ringlab::compare_hang(ps, {server, worker}).text, "too many"));
}

TEST_CASE("blocked calls that are all the reference's own name no look-alike schedule") {
  // The tree on 3 ranks with a send test that leaves the root out of round 1 (2 * mask <= n):
  // rank 2 waits for the root, which returned. The wrapping tree's look-alike has that same
  // receive, but its root sends there too: the blocked call tells nothing of it.
  const Schedule tree = ringlab::binomial_tree_schedule(3, 0);
  Report waiting = stuck(2, false, 0, "bcast-tree", 1);
  waiting.scope = 0, waiting.scopes = 1;
  Report root;
  root.rank = 0, root.collective = "comm.all_ok", root.scope = -1, root.scopes = 1;
  const auto c = ringlab::compare_hang(tree, {waiting, root});
  CHECK(has(c.text, "rank 0 has already returned from the binomial tree"));
  CHECK_FALSE(has(c.text, "the blocked calls are those of"));
}

TEST_CASE("a hung call the schedule does not have at that step is named with what it has there") {
  const Schedule chain = ringlab::chain_schedule(3);
  const auto c = ringlab::compare_hang(chain, {stuck(0, false, 1, "forward", 0)});
  CHECK(c.departs);
  CHECK(has(c.text, "diagnosis: forward step 0: rank 0 waits to receive from rank 1; the chain has rank 0 send to rank "
                    "1 there (the rank after it), and no receive: the chain does not have this call at this step. "
                    "That is your receive hole"));
  // A rank the schedule gives no call at all in that round.
  const Schedule tree = ringlab::binomial_tree_schedule(4, 0);
  const auto t = ringlab::compare_hang(tree, {stuck(3, false, 0, "bcast-tree", 0)});
  CHECK(has(t.text, "round 0 (root 0): rank 3 waits to receive from rank 0; the binomial tree has rank 3 make no call there."));
}

TEST_CASE("a hung receive from any rank (a negative peer) is never the schedule's call") {
  const Schedule chain = ringlab::chain_schedule(2);
  const auto c = ringlab::compare_hang(chain, {stuck(0, false, -1, "forward", 0), stuck(1, false, 0, "forward", 1)});
  CHECK(c.departs);
  CHECK(has(c.text, "diagnosis: forward step 0: rank 0 waits to receive from any rank; the chain has rank 0 send to "
                    "rank 1 there (the rank after it), and no receive: the chain does not have this call at this step."));
  CHECK_FALSE(has(c.text, "the peers are right"));
}

TEST_CASE("a hang whose blocked calls are all a known mix-up of the tree's numbering is named as that mix-up") {
  const Schedule root1 = ringlab::binomial_tree_schedule(4, 1);
  REQUIRE(root1.look_alikes.size() == 5);
  // v - mask = 0 used as a real rank: rank 2 (v = 1) waits on rank 0, not on its parent, rank 1.
  const auto c = ringlab::compare_hang(root1, {stuck(2, false, 0, "bcast-tree", 0)});
  CHECK(c.departs);
  CHECK(has(c.text, "diagnosis: the blocked calls are those of the tree from rank 1 with the peers v + mask and "
                    "v - mask used as real ranks: v counts from the root, comm.send and comm.recv want real ranks"));
  CHECK(has(c.text, "The first departure: round 0 (root 1): rank 2 waits to receive from rank 0; the binomial tree "
                    "has rank 2 receive from rank 1 there (its parent): the peer is wrong."));
  // comm.rank() used as v: rank 3 acts as v = 3 and waits on absolute(3 - 2) = rank 2 in round 1.
  const auto d = ringlab::compare_hang(root1, {stuck(3, false, 2, "bcast-tree", 1)});
  CHECK(has(d.text, "diagnosis: the blocked calls are those of a tree where each rank's own number comm.rank() "
                    "stands in for v"));
  // A wrong call that no mix-up makes gets the departure alone.
  const auto e = ringlab::compare_hang(root1, {stuck(3, false, 3, "bcast-tree", 1)});
  CHECK(e.departs);
  CHECK_FALSE(has(e.text, "those of"));
  // Root 0: the numberings agree, so there is no mix-up to name (the rounds' order and the
  // direction of the transfers are other matters).
  for (const auto& a : ringlab::binomial_tree_schedule(4, 0).look_alikes)
    CHECK((has(a.what, "largest mask") || has(a.what, "sends and receives are swapped")));
}

TEST_CASE("a hang outside the schedule's phases is not compared") {
  const Schedule ring = ringlab::ring_allreduce_schedule(3);
  const auto c = ringlab::compare_hang(ring, {stuck(0, true, 1, "bcast-tree", 0)});
  CHECK_FALSE(c.departs);
  CHECK(c.text.empty());
}

TEST_CASE("a ring that sends before it receives: every blocked call is the ring's, the order is the problem") {
  const Schedule ring = ringlab::ring_allreduce_schedule(2);
  const auto c = ringlab::compare_hang(ring, {stuck(0, true, 1, "reduce-scatter", 0), stuck(1, true, 0, "reduce-scatter", 0)});
  CHECK_FALSE(c.departs);
  CHECK(has(c.text, "reduce-scatter step 0: rank 0 waits to send to rank 1, as the ring has it."));
  CHECK(has(c.text, "the peers are right"));
}

// --- a hang whose message was sent after all: it sits unreceived (the reports' strays) ------
TEST_CASE("a hung receive whose message arrived with another tag is a tag mismatch, not a missing send") {
  const Schedule chain = ringlab::chain_schedule(2);
  Report waiting = stuck(1, false, 0, "forward", 1);
  waiting.waits[0].tag = 1;                  // rank 1 waits for tag 1 ...
  waiting.strays = {Pending{false, 0, 0, 8}};  // ... and holds rank 0's message, tag 0
  const auto c = ringlab::compare_hang(chain, {waiting});
  CHECK(c.departs);
  CHECK(has(c.text, "diagnosis: forward step 1: rank 1 waits to receive from rank 0, as the chain has it; rank 0's "
                    "message did reach rank 1, with tag 0, and rank 1 waits for tag 1: the tags do not match. Rank 0's "
                    "send (your send hole) and rank 1's receive (your receive hole) must use the same tag."));
  CHECK_FALSE(has(c.text, "never made that send"));  // it made it: no false blame on the send
  CHECK_FALSE(has(c.text, "That is your"));           // the sentence names both holes, blames neither
}

TEST_CASE("a hung receive whose message sits on another rank names where the send went") {
  const Schedule chain = ringlab::chain_schedule(3);
  Report last = stuck(2, false, 1, "forward", 2);
  last.strays = {Pending{false, 0, 0, 8}};  // rank 0's message went to rank 2
  const auto c = ringlab::compare_hang(chain, {stuck(1, false, 0, "forward", 1), last});
  CHECK(c.departs);
  CHECK(has(c.text, "diagnosis: forward step 1: rank 1 waits to receive from rank 0, as the chain has it; the chain "
                    "has rank 0 send to rank 1 in forward step 0 (the rank after it). Rank 0 sent rank 2 a message (8 "
                    "B, tag 0) that no receive took, and rank 1 holds none from it: rank 0's message went to rank 2. "
                    "The chain has rank 0 make no send to rank 2: the peer of rank 0's send is wrong. That is your "
                    "send hole"));
  CHECK_FALSE(has(c.text, "never made that send"));
}

TEST_CASE("a call MPI refused, to a rank that does not exist, is compared with the schedule") {
  const Schedule chain = ringlab::chain_schedule(2);
  Report refused = stuck(1, true, 2, "forward", 1);
  refused.failed = true;
  const auto c = ringlab::compare_hang(chain, {refused});
  CHECK(c.departs);
  CHECK(has(c.text, "diagnosis: forward step 1: rank 1 tried to send to rank 2, which does not exist (ranks 0..1); "
                    "the chain has rank 1 receive from rank 0 there (the rank before it), and no send: the chain does "
                    "not have this call at this step. A call to a rank that does not exist, on a rank that makes no "
                    "send here: the condition around the send lets this rank through. That is your send hole"));
  // Where the schedule has a send to another peer, the peer is wrong (the ring's r + 1 without mod n).
  const Schedule ring = ringlab::ring_allreduce_schedule(3);
  Report wrapped = stuck(2, true, 3, "reduce-scatter", 0);
  wrapped.failed = true;
  const auto r = ringlab::compare_hang(ring, {wrapped});
  CHECK(has(r.text, "rank 2 tried to send to rank 3, which does not exist (ranks 0..2); the ring has rank 2 send to "
                    "rank 0 there (the rank after it): the peer is wrong."));
  CHECK_FALSE(has(r.text, "the condition around"));
  // A receive from rank -1 (r - 1 on rank 0), refused: the rank it named, not "any rank".
  Report below = stuck(0, false, -1, "forward", 0);
  below.failed = true;
  const auto b = ringlab::compare_hang(chain, {below});
  CHECK(has(b.text, "diagnosis: forward step 0: rank 0 tried to receive from rank -1, which does not exist (ranks "
                    "0..1); the chain has rank 0 send to rank 1 there"));
  CHECK(has(b.text, "the condition around the receive lets this rank through"));
  // The tree's root receiving in round 0 as its first call there: the senders' test left it out.
  const Schedule tree = ringlab::binomial_tree_schedule(2, 0);
  Report root = stuck(0, false, -1, "bcast-tree", 0);
  root.failed = true, root.started_here = 1;
  const auto t = ringlab::compare_hang(tree, {root});
  CHECK(has(t.text, "rank 0 tried to receive from rank -1, which does not exist (ranks 0..1); the binomial tree has "
                    "rank 0 send to rank 1 there (its child), and no receive: the binomial tree does not have this "
                    "call at this step. A call to a rank that does not exist, made first at this step by a rank that "
                    "the binomial tree has send here: the test that picks this step's senders leaves rank 0 out, and "
                    "the receive took it instead."));
  CHECK_FALSE(has(t.text, "lets this rank through"));
}

TEST_CASE("an extra send made before the rank's first receive is told by the rank's role in the tree") {
  const Schedule s = ringlab::binomial_tree_schedule(4, 0);
  auto with_extra_send = [&](int rank, int peer) {
    auto events = run_of(s);
    Event e;
    e.rank = rank;
    e.op = Op::send;
    e.peer = peer;
    e.phase = "bcast-tree";
    e.step = 0;
    e.t0 = e.t1 = -1;  // first of all its events
    events.push_back(e);
    return diagnose_schedule(s, events);
  };
  // Rank 1 receives in round 0: sending there, it has nothing yet (a sender test that lets v = mask through).
  CHECK(has(with_extra_send(1, 2),
            "round 0 (root 0): rank 1 sent to rank 2, a send that the binomial tree does not have — an extra send: "
            "rank 1 sends before its first receive: the binomial tree has rank 1 receive from rank 0 (its parent) in "
            "this round, so it has no data yet to send. Look at the test that decides which ranks send in a round. "
            "That is your binomial tree hole"));
  // Rank 1 that received from its parent in round 0 and passed it on at once, in the same round:
  // the send comes after the receive, so "before its first receive" would blame what it did right.
  {
    auto events = run_of(s);
    Event e;
    e.rank = 1;
    e.op = Op::send;
    e.peer = 2;
    e.phase = "bcast-tree";
    e.step = 0;
    const Event* got = find(events, 1, Op::recv, "bcast-tree", 0);
    REQUIRE(got);
    e.t0 = e.t1 = got->t1 + 0.5;
    events.push_back(e);
    const auto text = diagnose_schedule(s, events);
    CHECK(has(text, "an extra send: rank 1 received from rank 0 (its parent) and passed the data on in the same "
                    "round: the binomial tree has a rank send only from the round after the one it receives in"));
    CHECK_FALSE(has(text, "before its first receive"));
  }
  // Rank 2 receives only in round 1.
  CHECK(has(with_extra_send(2, 3), "rank 2 sends before its first receive: the binomial tree has rank 2 receive from "
                                   "rank 0 (its parent) only in round 1 (root 0), so it has no data yet to send."));
  // The ring has no such role (every rank holds data from the start): counted as before.
  const Schedule ring = ringlab::ring_allreduce_schedule(2);
  auto events = run_of(ring);
  Event extra = *find(events, 0, Op::send, "reduce-scatter", 0);
  extra.t0 = extra.t1 = 1000;
  events.push_back(extra);
  const auto text = diagnose_schedule(ring, events);
  CHECK(has(text, "an extra send: rank 0 sent 3 messages to rank 1 in this call, the ring sends 2."));
  CHECK_FALSE(has(text, "before its first receive"));
}

TEST_CASE("a loop that runs on past the schedule's last round, making no call there, is told") {
  const Schedule tree = ringlab::binomial_tree_schedule(5, 0);  // rounds 0, 1, 2
  auto events = run_of(tree);
  Event end;
  end.rank = 3, end.op = Op::end, end.phase = "bcast-tree", end.step = 4, end.t0 = end.t1 = 1e6;  // k < n rounds
  events.push_back(end);
  CHECK(has(diagnose_schedule(tree, events),
            "every transfer is the binomial tree's, but rank 3 went on to round 4 (root 0), past the binomial tree's "
            "last, round 2 (root 0): its loop runs more rounds than the binomial tree has, and makes no call in the "
            "extra ones — on 5 ranks the tree has 3 rounds"));
  events.back().step = 2;  // ended at the last round: nothing to say
  CHECK(diagnose_schedule(tree, events).empty());
}

TEST_CASE("a departure in a call whose root alone differs from one that went right says so") {
  Schedule tree = ringlab::binomial_tree_schedule(4, 2);
  auto events = run_of(tree);
  find(events, 3, Op::send, "bcast-tree", 1)->peer = 2;  // v = 1 sends to v + 1, not v + 2
  CHECK(!has(diagnose_schedule(tree, events), "With root"));  // no earlier call that went right
  tree.right_with_root = 0;
  const std::string text = diagnose_schedule(tree, events);
  CHECK(has(text, "With root 0 every rank made the binomial tree's calls and got the right values; this call "
                  "differs only in its root (root 2): look at where the root enters your code"));
  CHECK(count(text, "With root") == 1);
}

TEST_CASE("a send of the chunk the schedule has the rank receive into: the sendrecv's views swapped") {
  const Schedule ring = ringlab::ring_allreduce_schedule(3);
  auto events = run_of(ring);
  Event* send = find(events, 0, Op::send, "reduce-scatter", 0);
  Event* recv = find(events, 0, Op::recv, "reduce-scatter", 0);
  std::swap(send->chunk, recv->chunk);  // sendrecv(chunk(r - s - 1), next, chunk(r - s), prev)
  CHECK(has(diagnose_schedule(ring, events),
            "reduce-scatter step 0: rank 0 sent chunk 2 to rank 1, expected chunk 0, the chunk the ring has it receive "
            "into there, and its receive took chunk 0, this send's: the send and receive views are in each other's "
            "place"));
  recv->chunk = 1;  // the receive took yet another chunk: the send alone is also an index one off
  CHECK(has(diagnose_schedule(ring, events), "expected chunk 0 — the chunk index is wrong."));
  // On 2 ranks both indices one step off look the same: two possibilities.
  const Schedule two = ringlab::ring_allreduce_schedule(2);
  auto on_two = run_of(two);
  std::swap(find(on_two, 0, Op::send, "reduce-scatter", 0)->chunk, find(on_two, 0, Op::recv, "reduce-scatter", 0)->chunk);
  CHECK(has(diagnose_schedule(two, on_two),
            "this send's — on 2 ranks one possibility is the send and receive views in each other's place"));
  CHECK(has(diagnose_schedule(two, on_two), "another, both chunk indices one step off"));
}

// `tree` with other transfers: each (round, from, to) a send and its receive.
Schedule tree_with(const Schedule& tree, std::initializer_list<std::tuple<int, int, int>> sends) {
  Schedule s = tree;
  s.transfers.clear();
  for (auto [k, from, to] : sends) {
    s.transfers.push_back({from, Op::send, to, -1, "bcast-tree", k, "", ""});
    s.transfers.push_back({to, Op::recv, from, -1, "bcast-tree", k, "", ""});
  }
  return s;
}

TEST_CASE("a tree whose rounds run from the largest mask down is named as such") {
  const Schedule tree = ringlab::binomial_tree_schedule(4, 0);
  // Masks 2, 1 with the same tests: round 0 has ranks 0 and 1 (which has nothing yet) send to 2
  // and 3, round 1 rank 0 send to 1.
  auto events = run_of(tree_with(tree, {{0, 0, 2}, {0, 1, 3}, {1, 0, 1}}));
  const auto text = diagnose_schedule(tree, events);
  CHECK(has(text, "every rank sent and received as in a tree whose rounds run from the largest mask down to 1: in "
                  "round k only the first 2^k ranks (counted from the root) hold the data"));
  CHECK(has(text, "The first departure: round 0 (root 0): rank 0 sent to rank 2, expected rank 1"));
}

TEST_CASE("a tree whose sends and receives are swapped, data flowing to the root, is named as such") {
  const Schedule tree = ringlab::binomial_tree_schedule(4, 0);
  // Round 0: 1 sends to 0; round 1: 2 sends to 0, 3 to 1.
  const auto text = diagnose_schedule(tree, run_of(tree_with(tree, {{0, 1, 0}, {1, 2, 0}, {1, 3, 1}})));
  CHECK(has(text, "every rank sent and received as in a tree whose sends and receives are swapped: in every round "
                  "the child sends to its parent: the data flows towards the root"));
  CHECK(has(text, "The first departure: round 0 (root 0): rank 0 never sends to rank 1: rank 0 sent 0 messages"));
  CHECK_FALSE(has(text, "a send is missing"));
}

TEST_CASE("a reduce-scatter index that runs the other way round the ring is told as such, not as steps run backward") {
  const Schedule ring = ringlab::ring_allreduce_schedule(4);
  auto events = run_of(ring);
  // chunk r + s sent and r + s + 1 received where r - s and r - s - 1 belong, every rank and step.
  for (auto& e : events)
    if (e.phase == "reduce-scatter")
      e.chunk = e.op == Op::send ? (e.rank + e.step) % 4 : (e.rank + e.step + 1) % 4;
  const auto text = diagnose_schedule(ring, events);
  CHECK(has(text, "lies as far from chunk 0 (the rank's own number) as the schedule's, on the other side — the chunk "
                  "index runs the other way round the ring (+ s where - s belongs)"));
  CHECK_FALSE(has(text, "the steps run backward"));
}
