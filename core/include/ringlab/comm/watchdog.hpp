// The watchdog: turns a hang into an explanation. A rank blocked in a point-to-point call for
// longer than RINGLAB_WATCHDOG_S seconds (default 10; 0 turns the watchdog off) tells every
// other rank what it waits for; the lowest blocked rank prints who waits for whom and, where
// the waits form a cycle, the deadlock and what to change; then every rank exits with code 3:
//
//   ringlab watchdog: ranks blocked for more than 3 s in a point-to-point call:
//     rank 0 waits to send 4 MiB to rank 1 (tag 0)    in ring_allreduce, reduce-scatter step 0
//     ...
//   deadlock: rank 0 waits to send to 1; rank 1 waits to send to 2; ... rank 3 waits to send to 0.
//     Every rank in this cycle sends before it receives: ... use comm.sendrecv, or post the
//     receive first.
//
// It works when every rank is stuck. The communicator's blocking calls are non-blocking MPI
// calls finished by wait_all() below, a loop that tests the requests and looks at the clock. A
// rank whose wait passes the threshold sends its report with non-blocking sends on its own
// duplicate of the communicator (so the messages cannot be mistaken for the lesson's), keeps
// testing its transfer and reads the others' reports. A rank waiting in a call every rank makes
// (comm.barrier, all_ok, the end of the run: wait_collective) answers with where it is; a rank
// that is computing sends nothing, and the report says so.
// Cost when nothing hangs: a clock read every few hundred tests of the requests.
#pragma once
#include <mpi.h>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace ringlab::watchdog {

// One transfer a rank waits for.
struct Pending {
  bool send = false;  // true: waits to send to `peer`; false: waits to receive from it
  int peer = -1;      // MPI_ANY_SOURCE (negative) when any rank would do
  int tag = 0;
  std::size_t bytes = 0;
};

// RINGLAB_WATCHDOG_S, read once: seconds a wait may take before the watchdog looks; 0 = off.
double threshold_s();

// The general watched wait: calls done() until it returns true (done() may move transfers along
// as it tests them: ipc pulls arrived chunks, nccl queries its stream). still_waiting() names
// what is not finished yet, for the report. When the run is found stuck it does not return.
void wait_until(MPI_Comm watch, const std::function<bool()>& done,
                const std::function<std::vector<Pending>()>& still_waiting);

// Called once before the watchdog (or an MPI error) stops the run: a device transport aborts
// its NCCL communicator there, so that no rank stays inside NCCL.
void before_abort(std::function<void()> hook);
// Lines added to every report, after the diagnosis: a transport whose rules are stricter than
// MPI's (--transport strict) says which rule the hang is about.
void explain_rules(std::string text);

// MPI_Waitall on reqs[0..n), watched; what[i] describes reqs[i]. `watch` is a duplicate of the
// transfers' communicator, for the watchdog's own messages. Returns when every request has
// completed. When the run is found stuck it does not return: every rank exits with code 3.
// `statuses` (n of them), when given, receive the requests' statuses (who sent, which tag, how much).
void wait_all(MPI_Comm watch, MPI_Request* reqs, const Pending* what, int n,
              MPI_Status* statuses = MPI_STATUSES_IGNORE);

// A call every rank of the communicator makes (barrier, all_ok, the gather at the end of a run),
// started non-blocking as `req`, waited for here. It never stops the run itself: a rank in one
// waits for the others, who may only be slow (rank 0 computing a reference alone). But when a
// rank blocked in a point-to-point call reports, this rank answers where it is (`what`, e.g.
// "comm.all_ok", and how many collectives it has called): a hang whose partner is already in
// such a call then says that the partner is past the point, and whether it skipped the collective.
void wait_collective(MPI_Comm watch, MPI_Request* req, const char* what);

// This thread's waits (wait_all) call `pause` between two tests of their requests, instead of
// spinning: a progress thread that shares a core with the computation
// (ringlab/progress_thread.hpp) must not take that core from it, so it sleeps a little there,
// or gives the core back to the computation until it is handed the core again. An empty
// function (the default) spins.
void set_pause_between_tests(std::function<void()> pause);

// MPI errors on `comm` (a receive buffer too small for the message, a bad rank, ...) print one
// line that says what happened, where the algorithm was, and what it usually means, then stop
// every rank with exit code 4 (MPI's default handler stops them too, but silently under
// `mpirun --quiet`). The Communicator installs it on its communicator.
void explain_errors(MPI_Comm comm);

// The communicator whose messages the watchdog looks at when it stops a run: what arrived on a
// blocked rank and no receive took (a message sent with another tag, or to the wrong rank) is
// in its report, so that a hang names where the missing message went instead of saying it was
// never sent. The Communicator names its own.
void look_for_strays_on(MPI_Comm comm);

// While it lives, an MPI error on this thread is about this call (the Communicator marks each
// transfer it posts): a peer that is no rank (MPI_ERR_RANK) is named, and compared with the
// schedule of the check around it (compare_with), like a hang.
class Calling {
 public:
  explicit Calling(const Pending& call);
  ~Calling();
  Calling(const Calling&) = delete;
  Calling& operator=(const Calling&) = delete;

 private:
  const Pending* outer_;
};

// A send or receive whose peer is no rank (< 0 or >= the size), refused before MPI sees it: MPI
// reads -1 as "any rank" and -2 as "no rank at all", so a peer computed as r - 1 on rank 0 would
// wait for anyone, or do nothing, silently. Named and compared with the schedule as MPI_ERR_RANK
// is; every rank stops.
[[noreturn]] void refuse_bad_peer(MPI_Comm comm, const Pending& call);

// A send or receive of `count` > 0 elements at no memory (a null pointer), refused before MPI
// answers it with a bare MPI_ERR_BUFFER: a View built by hand from an empty buffer's data() with
// a size of its own. Named with the collective's own buffer size; every rank stops.
[[noreturn]] void refuse_no_memory(const Pending& call, std::size_t count);

// Receives the next message that has already arrived on `comm` (any rank, any tag) into
// `bytes`, with its envelope in `status`; false when none has. The watchdog reads reports so,
// and the end-of-run check the messages no receive took.
bool take_arrived(MPI_Comm comm, std::string& bytes, MPI_Status& status);

// What one rank says about itself. The rest is exposed for the unit test of the diagnosis.
struct Report {
  int rank = -1;
  bool blocked = false;        // false: not (or no longer) blocked in a point-to-point call
  std::string where;           // e.g. "ring_allreduce, reduce-scatter step 0"; may be empty
  std::vector<Pending> waits;  // the transfers it waits for
  std::string phase;           // the same place, as the trace names it (tc.at): "reduce-scatter"
  int step = -1;               //   and 0; "" and -1 where the algorithm did not say
  // Messages that reached this rank and that no receive took (yet): peer = the sender, its tag
  // and size; the first from each sender (MPI shows one per sender without receiving it).
  std::vector<Pending> strays;
  bool failed = false;  // the call in `waits` did not wait: MPI refused it (a peer that is no rank)
  // Not blocked in a point-to-point call but waiting in a call every rank makes (wait_collective):
  // its name ("comm.all_ok"); "" otherwise.
  std::string collective;
  // How many collectives (trace::Collective scopes) this rank has started, and the serial of the
  // one it is in (trace::scope_serial): every rank starts them in the same order, so a rank that
  // has started fewer than another's serial + 1 never called that one. -1: not said.
  long long scopes = -1, scope = -1;
  // The transfers it has started at its place (phase, step), the one it waits for included;
  // -1: not said. More than the schedule has there: a call made once too often.
  int started_here = -1;
  // The place it was at before (trace::place_left) and the transfers it started there; "", -1, -1:
  // not said. Fewer than the schedule has there: it left a loop early.
  std::string left_phase;
  int left_step = -1, left_here = -1;
};
std::string encode(const Report& r);
bool decode(const std::string& text, Report& r);

// What a check that knows the algorithm's schedule says about the blocked calls: each compared
// with the call the schedule has that rank make at that step (check/schedule_diagnosis.hpp,
// WatchSchedule, installs it around the call it checks). `departs`: a blocked call is not the
// schedule's; the comparison then names the cause, and the watchdog's own guesses (reorder the
// calls, a missing call ...) are left out. Printed after every rank's state.
struct Comparison {
  std::string text;  // whole lines, each ending in '\n'; "" adds nothing
  bool departs = false;
};
using CompareFn = std::function<Comparison(const std::vector<Report>& reports, int size)>;
void compare_with(CompareFn compare);  // an empty function: no schedule known (the default)

// The text the lowest blocked rank prints: every rank's state, the comparison with the schedule
// where one is known, the cycle of waits if there is one, and what to change. `reports` holds
// what was heard (at most one per rank); ranks missing from it are not in a point-to-point call.
std::string diagnose(const std::vector<Report>& reports, int size, double threshold_s,
                     const Comparison& schedule = {});

// Where the message that rank `to` waits for from rank `from` with `tag` is, from the strays in
// the reports: one sentence, or "" when no rank holds a stray from `from`. The message arrived
// with another tag ("... the tags do not match"), or went to another rank ("rank 0 sent rank 2
// a message that no receive took, and rank 1 holds none from it").
std::string stray_text(const std::vector<Report>& reports, int from, int to, int tag);
// The rank that holds a stray from `from` (other than `to`), or -1: where a send went instead.
int stray_at(const std::vector<Report>& reports, int from, int to);

}  // namespace ringlab::watchdog
