// What the failures of several check runs have in common. One failing run shows which cases
// went wrong; some causes only show across runs (right on 2 ranks and wrong on 3, wrong only
// for counts that do not divide evenly, right only for root 0). Each rule below looks for one
// such pattern in structured results and names the likely cause in one sentence.
//
// Where the results come from: a lesson's --check (harness::check) appends one line per case
// it checked, and one per wrong element it shows, to the file RINGLAB_CHECK_RESULTS names
// (scripts/ringlab-exercise sets it, one file per run). The file, tab-separated:
//   case      COUNT  ROOT  WRONG      one checked case: count, root (-1: none), wrong elements over all ranks
//   mismatch  EXPECTED  GOT [OWN]     one wrong element, as one rank saw it (OWN: that rank's
//                                     own input there, when the check knows it)
//   departure TEXT                    the run's messages departed from the schedule (schedule_diagnosis.hpp)
//   factor    K                       the run's wrong values are K times the right ones (value_relation.hpp;
//                                     nan: they are NaN or inf)
// `ringlab-manifest diagnose NN` reads them and prints what diagnose_runs says.
// No MPI here: tested with data alone (tests/core/test_diagnose_runs.cpp).
#pragma once
#include <cmath>
#include <string>
#include <vector>

#include "ringlab/check/value_relation.hpp"

namespace ringlab {

struct CheckCase {
  long long count = -1;  // -1: the check has no count column
  int root = -1;         // -1: not a rooted collective
  long long wrong = 0;   // over every rank
};

struct CheckRun {
  int np = 0;
  int rc = 0;  // the run's exit code (0: passed)
  std::vector<CheckCase> cases = {};
  std::vector<std::pair<double, double>> mismatches = {};  // (expected, got)
  std::vector<std::string> departures = {};                // the schedule diagnosis said why already
  std::vector<double> mismatch_own = {};  // per mismatch: the rank's own input there (NaN: not recorded)
  std::vector<double> factors = {};       // every wrong value k times the right one (NaN: NaN or inf)
};

// The symptoms (a manifest's `diagnose` names) to look for in `runs`, each a sentence that names
// the cause and what to look at; empty when none fits, and empty when a run departed from its
// schedule: that run's diagnosis named the cause, and a pattern across runs would only guess.
//   remainder  wrong only where count is not a multiple of np
//   np2        right on 2 ranks, wrong on 3 or more
//   one-chunk  every wrong case has about count * (np - 1) wrong elements: one right chunk per rank
//   times-np   every wrong value is np times (or 1/np of) the expected one. Evidence first: the
//              factor and one example; the cause is firm only when a run on 3 or more ranks shows
//              it (on 2 ranks n times is also 2 times: a term added twice)
//   root0      right when the root is 0, wrong for every other root
//   kept-own   every wrong value of a failing run is that rank's own input there: what it received
//              never reached the buffer checked (said for the first such run: on more ranks a rank
//              may receive another rank's stale input instead)
//   factor-of-n  (a check whose right value is a mean over the n ranks) the factor k of every failing
//              run's wrong values follows ONE of a few functions of n over the runs, NaN where that
//              function divides by zero, 1 where a run passed: n (the sum), n/(n - 1) (divided by
//              n - 1), (n - 1)/n, 1/n, n², 1/n². Named only when exactly one fits and two numbers of
//              ranks show it (on 2 ranks alone n and n/(n - 1) are both 2); also 1/n in integers
//              (1 on one rank, 0 on more: k = 0, every update lost, yet one rank passes), which one
//              failing run shows beside one that passed (no other function of n is ever 0)
//   factor-of-workers  factor-of-n where the mean is over the n = np - 1 workers of a server
std::vector<std::string> diagnose_runs(const std::vector<std::string>& symptoms,
                                       const std::vector<CheckRun>& runs);

// Appends to the file RINGLAB_CHECK_RESULTS names; does nothing when it is not set. Each line
// goes out in one write(2) on a file opened for appending, so ranks writing at once do not mix.
void record_check_case(long long count, int root, long long wrong);
void record_check_mismatch(double expected, double got, double own = NAN);
// The run's wrong values are k times the right ones (0: every wrong value is 0; NaN: NaN or inf).
void record_check_factor(double k);
void record_check_departure(const std::string& diagnosis);
// The factor among `found` (relate()'s): its k, 0 for a zero relation, NaN when the values are NaN
// or inf; nothing otherwise.
void record_check_relation(const std::vector<RelationFound>& found);

// One run's results, read back (a missing file: no cases, as after a crash). Lines it does not
// know are skipped.
CheckRun read_check_run(int np, int rc, const std::string& path);

}  // namespace ringlab
