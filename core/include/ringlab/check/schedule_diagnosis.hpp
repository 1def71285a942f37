// Which messages an algorithm must send, and the first place a run's trace departs from that.
//
// A collective is a schedule before it is arithmetic: the ring's reduce-scatter step s has rank
// r send chunk (r - s) mod n to r + 1, the binomial tree's round k has rank v send to v + 2^k.
// When a learner's version gets a number wrong, the values that come out say little about
// where; the trace says exactly where. The reference schedules here are small pure functions,
// written from the lessons' comments (not from the solutions' code, which is what they check),
// and diagnose_schedule compares a run's send and receive events with one of them:
//   "reduce-scatter step 1: rank 2 sent chunk 0 to rank 0, but the ring sends chunk 1 there ..."
// The check harness (harness.hpp) traces the scheduled implementation in memory during --check
// and prints that sentence as the case's diagnosis, before any the values would give.
// A hang has no trace to compare: the watchdog's reports say which call each rank is blocked in,
// and where (phase, step). compare_hang sets each against the call the schedule has there, so the
// advice on peers comes from the exercise's own schedule (WatchSchedule installs it).
// Unit-tested without MPI: tests/core/test_schedule_diagnosis.cpp.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "ringlab/comm/watchdog.hpp"
#include "ringlab/trace/trace.hpp"

namespace ringlab {

// One message of a reference schedule: on `rank`, a send to (op send) or a receive from (op
// recv) `peer`, of chunk `chunk` (-1: the whole buffer, no chunk to compare), in `phase`,
// step `step` (the names the algorithm gives trace::Collective::at).
struct Transfer {
  int rank = 0;
  trace::Op op = trace::Op::send;
  int peer = -1;
  int chunk = -1;
  std::string phase;
  int step = -1;
  std::string role;  // who the peer is to `rank`, said after it: "its parent", "the rank after it"
  std::string hole;  // the exercise's hole that makes this call, where the phase's is not it
  bool operator==(const Transfer&) const = default;
};

// A known mistake that is a schedule itself (the tree built from rank 0 whatever the root): a
// run, or a hang, that follows it gets its sentence before the first departure:
//   "every rank sent and received as in WHAT: ADVICE", "the blocked calls are those of WHAT: ..."
struct LookAlike {
  std::vector<Transfer> transfers;
  std::string what;    // "the tree from rank 0, but the root is rank 2"
  std::string advice;  // "count ranks from the root ..."
};

struct Schedule {
  std::string name;  // said in messages: "the ring", "the binomial tree"
  int ranks = 1;
  std::string step_word = "step";  // how a step is called: "step", "round"
  // Every transfer, in the order they happen: phase by phase, step by step, and within a step
  // rank by rank, each rank's send before its receive.
  std::vector<Transfer> transfers;
  // One sentence on the schedule's shape, added to a message about a missing or extra step:
  // "each phase has n - 1 = 3 steps".
  std::string shape;
  // Per phase, the hole of the exercise that writes it ("reduce-scatter"), named in a message
  // about that phase. The rule itself is not said: the message tells what happened and where,
  // and the exercise's hints (`./ringlab hint NN`, NN = `exercise`) give the rule, a level at a time.
  std::vector<std::pair<std::string, std::string>> holes;
  std::string exercise;  // its number: "05"
  // Said after every step's name: "root 2" (a broadcast's schedule depends on its root).
  std::string context;
  // The root of an earlier call of the same size in which every rank followed this schedule and
  // got the right values (-1: none; the check harness sets it). A departure in this call then says
  // that only the root changed, and `root_advice`: where to look when it has.
  int right_with_root = -1;
  std::string root_advice;
  std::vector<LookAlike> look_alikes;  // known mistakes that are schedules themselves
  // What a rank lacks when it sends before its first receive of the schedule, where the data
  // reaches a rank only through that receive (a broadcast): "it has no data yet". An extra send
  // made so early is then told by the rank's role: when the schedule has it receive, and from whom.
  std::string before_first_receive;
  // The phases whose every step adds what it received into the data (the ring's reduce-scatter):
  // a rank's add (a reduce event) in such a step must come after that step's receive, or it adds
  // what the landing buffer held before the message came.
  std::vector<std::string> adds_received;
  // What the messages carry (value_departure.hpp): for each send of `transfers`, how many times
  // each rank's input is in it (m[k] for rank k, of the send's chunk; -1: the whole buffer), in
  // the same order as the sends; and what every rank's result holds at the end, the same way
  // (`result_chunked`: chunk by chunk, the ring's n chunks; otherwise the whole buffer). Empty: the
  // schedule says nothing of values.
  std::vector<std::vector<int>> carries;
  std::vector<int> result;
  bool result_chunked = false;
};

// Lesson 05's ring allreduce on n ranks (solutions/05_ring_allreduce/ring_allreduce.hpp's
// picture): reduce-scatter step s, rank r sends chunk (r - s) mod n to r + 1 and receives chunk
// (r - s - 1) mod n from r - 1; allgather step s, it sends chunk (r + 1 - s) mod n and receives
// chunk (r - s) mod n. n - 1 steps each.
Schedule ring_allreduce_schedule(int n);

// Lesson 03's binomial-tree broadcast from `root` on n ranks: with v = (rank - root) mod n, in
// round k (mask = 2^k < n) every v < mask sends to v + mask when that is < n, and every
// mask <= v < 2 mask receives from v - mask. Phase "bcast-tree", the whole buffer (chunk -1).
Schedule binomial_tree_schedule(int n, int root);

// Lesson 02's forward chain on n ranks (solutions/02_model_parallel/model_parallel.hpp's
// picture): rank r, in phase "forward" step r, receives the partial sum from r - 1 (all but rank 0)
// and sends its own on to r + 1 (all but the last). The whole value (chunk -1).
Schedule chain_schedule(int n);

// Lesson 04's synchronous parameter server on n ranks (rank 0 serves, 1 .. n - 1 work), for
// `steps` steps: in step k, phase "push", every worker sends its gradient to the server, which
// receives from w = 1, 2, ... in turn; phase "pull", the server sends the parameters to
// w = 1, 2, ... and every worker receives them. The whole buffer (chunk -1).
Schedule parameter_server_schedule(int n, int steps);

// The first place where `events` (the sends and receives of one call of the algorithm, from
// every rank, each rank's in the order it made them; other ops are ignored) depart from
// `reference`, as one sentence that says what is wrong, where (step, rank, peer, chunk) and what
// to look at; "" when every rank made exactly the reference's transfers. Each rank's sends are
// compared in order with the schedule's sends for that rank, and its receives with its
// receives: the first difference is a missing transfer (fewer than the schedule has), an extra
// one (more), a wrong peer or a wrong chunk. When the events carry phase and step names (the
// algorithm calls tc.at), they must be the schedule's too. Of all ranks' first differences the
// one earliest in the schedule is told, a send before a receive: a wrong send is the cause,
// the receive that follows it only its echo. When every transfer is the schedule's, the reduce
// events of the `adds_received` phases are checked too: an add before its step's receive.
std::string diagnose_schedule(const Schedule& reference, const std::vector<trace::Event>& events);

// " With root 0 every rank made the binomial tree's calls and got the right values; this call
// differs only in its root (root 1): ROOT_ADVICE." when `right_with_root` is set, else "": said
// after a departure (a wrong transfer, a hang, a wrong value) in that call.
std::string root_changed(const Schedule& s);

// A place of the schedule in words: "reduce-scatter step 1", "round 2 (root 0)".
std::string place_of(const Schedule& s, const std::string& phase, int step);

// A hang, against the schedule: each call the watchdog found blocked (its reports, with the
// phase and step the rank was at) compared with what `reference` has that rank do there —
//   "round 1 (root 0): rank 3 waits to receive from rank 0; the binomial tree has rank 3 receive
//    from rank 1 in this round (its parent): the peer is wrong."
// A call that is the schedule's gets "as the chain has it", and, where its peer is not in a
// point-to-point call, what the schedule has that peer do. Where that peer's message sits
// unreceived (the reports' strays), that is said instead of a missing send: with another tag on
// the waiting rank (the tags do not match), or on a rank the schedule has it never send to (the
// peer is wrong). `departs` when some blocked call is not the schedule's; then a "diagnosis:"
// line names the first and the exercise's hole. A report marked `failed` is a call MPI refused
// (a peer that is no rank): it "tried to" make it, and the schedule says what that rank does there.
watchdog::Comparison compare_hang(const Schedule& reference, const std::vector<watchdog::Report>& reports);

// While it lives, a hang (the watchdog stopping the run) is compared with `reference`: a check
// puts one around the call of the algorithm it knows the schedule of. One at a time.
class WatchSchedule {
 public:
  explicit WatchSchedule(Schedule reference);
  ~WatchSchedule();
  WatchSchedule(const WatchSchedule&) = delete;
  WatchSchedule& operator=(const WatchSchedule&) = delete;
};

}  // namespace ringlab
