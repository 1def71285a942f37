// The cross-run diagnosis (diagnose_runs.hpp): each symptom, fed as the results of several check
// runs, gets the sentence that names its cause; a pattern that some run contradicts, or that the
// exercise does not list, gets none. Also: results written by record_check_* read back the same.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "catch.hpp"
#include "ringlab/check/diagnose_runs.hpp"

using ringlab::CheckCase;
using ringlab::CheckRun;
using ringlab::diagnose_runs;

namespace {
const std::vector<std::string> kAll{"remainder", "np2", "one-chunk", "times-np", "root0"};

bool says(const std::vector<std::string>& found, const std::string& part) {
  for (const auto& s : found)
    if (s.find(part) != std::string::npos) return true;
  return false;
}

// A run of an allreduce-like check: counts 0, 1, 12 and 1000003 on np ranks; `wrong(count)`
// gives each case's wrong elements.
template <class F> CheckRun run_of(int np, F wrong) {
  CheckRun r{np, 0, {}, {}, {}, {}};
  for (long long count : {0LL, 1LL, 12LL, 1000003LL}) {
    r.cases.push_back({count, -1, wrong(count)});
    if (r.cases.back().wrong) r.rc = 1;
  }
  return r;
}
}  // namespace

TEST_CASE("runs that all pass have no diagnosis") {
  const auto ok = [](long long) { return 0LL; };
  CHECK(diagnose_runs(kAll, {run_of(1, ok), run_of(2, ok), run_of(3, ok)}).empty());
}

TEST_CASE("wrong only where count is not a multiple of np: the remainder chunk") {
  // 12 divides evenly on 2, 3 and 4 ranks; 1 and 1000003 do not (on more than 1 rank).
  const auto runs = std::vector<CheckRun>{run_of(2, [](long long c) { return c % 2 ? 1LL : 0LL; }),
                                          run_of(3, [](long long c) { return c % 3 ? 2LL : 0LL; })};
  const auto found = diagnose_runs(kAll, runs);
  CHECK(says(found, "wrong only where count is not a multiple of the number of ranks"));
  CHECK(says(found, "chunk_of / chunk(i), not count / n"));
  CHECK(found.size() == 1);
  SECTION("not when an even count is wrong too") {
    auto contradicted = runs;
    contradicted[0].cases[2].wrong = 3;  // count 12 on 2 ranks
    CHECK_FALSE(says(diagnose_runs(kAll, contradicted), "not a multiple"));
  }
  SECTION("not when the exercise does not list it") { CHECK(diagnose_runs({"np2"}, runs).empty()); }
}

TEST_CASE("right on 2 ranks, wrong on 3 or more: the direction round the ring") {
  std::vector<CheckRun> runs{{1, 0, {}, {}, {}, {}}, {2, 0, {}, {}, {}, {}}, {3, 1, {}, {}, {}, {}}, {4, 1, {}, {}, {}, {}}};
  CHECK(says(diagnose_runs(kAll, runs), "right on 2 ranks, wrong on 3 or more"));
  CHECK(says(diagnose_runs(kAll, runs), "send to next (r+1) and receive from prev (r-1)"));
  runs[1].rc = 1;  // wrong on 2 ranks as well: something else
  CHECK_FALSE(says(diagnose_runs(kAll, runs), "right on 2 ranks"));
}

TEST_CASE("a run that departed from its schedule silences the patterns across runs") {
  // A wrong chunk index that shows only from 3 ranks on looks like "right on 2, wrong on 3":
  // the schedule's diagnosis already named the cause, so no second, contradicting sentence.
  const auto ok = [](long long) { return 0LL; };
  const auto bad = [](long long count) { return count; };
  CheckRun three = run_of(3, bad);
  CHECK(says(diagnose_runs(kAll, {run_of(2, ok), three}), "right on 2 ranks"));
  three.departures.push_back("reduce-scatter step 1: rank 2 sent chunk 0 to rank 0, expected chunk 1");
  CHECK(diagnose_runs(kAll, {run_of(2, ok), three}).empty());
}

TEST_CASE("every rank right in one chunk only: the allgather is missing") {
  // count * (np - 1) wrong elements over all ranks, or a few fewer.
  const auto runs = std::vector<CheckRun>{run_of(2, [](long long c) { return c >= 2 ? c : 0LL; }),
                                          run_of(4, [](long long c) { return c >= 4 ? c * 3 - 1 : 0LL; })};
  const auto found = diagnose_runs({"one-chunk"}, runs);
  REQUIRE(found.size() == 1);
  CHECK(found[0] ==
        "every rank holds exactly one finished chunk and nothing else: the allgather phase is missing "
        "(or sends the wrong chunks).");
  auto half = runs;
  half[1].cases[3].wrong = 1000003;  // a third of what one-chunk leaves wrong on 4 ranks
  CHECK(diagnose_runs({"one-chunk"}, half).empty());
}

TEST_CASE("every wrong value np times the expected one, or 1/np of it") {
  CheckRun r{4, 1, {}, {{1.5, 6.0}, {-2.0, -8.0}, {0.25, 1.0}}, {}, {}};
  CHECK(says(diagnose_runs({"times-np"}, {r}), "exactly (number of ranks) x the expected one"));
  CheckRun small{4, 1, {}, {{1.5, 0.375}, {-2.0, -0.5}}, {}, {}};
  const auto found = diagnose_runs({"times-np"}, {small});
  CHECK(says(found, "exactly 1/(number of ranks) of the expected one"));
  CHECK_FALSE(says(found, "x the expected one"));
  CHECK(says(diagnose_runs({"times-np"}, {r}), "(e.g. expected 1.5 got 6 on 4 ranks): you summed where"));
  SECTION("on 2 ranks n x is also 2 x: the evidence first, the cause only as one possibility") {
    CheckRun two{2, 1, {}, {{1.5, 3.0}, {-2.0, -4.0}}, {}, {}};
    const auto text = diagnose_runs({"times-np"}, {two});
    CHECK(says(text, "(e.g. expected 1.5 got 3 on 2 ranks); on 2 ranks that is also a factor 2, so one "
                     "possibility is: you summed where the result must be averaged"));
    CHECK(says(text, "another, that one term was added twice."));
  }
  r.mismatches.push_back({3.0, 7.0});  // one value that is not 4x: no claim
  CHECK(diagnose_runs({"times-np"}, {r}).empty());
}

TEST_CASE("every wrong value the rank's own input: its arrival lost, or its own input sent back") {
  CheckRun two{.np = 2, .rc = 1};
  two.mismatches = {{895, -43}, {-896, 321}};
  two.mismatch_own = {-43, 321};
  const auto found = diagnose_runs({"kept-own"}, {two});
  REQUIRE(found.size() == 1);
  CHECK(found[0] ==
        "on 2 ranks every wrong value is that rank's own input there (e.g. expected 895 got -43): "
        "the rank ends with its own input — one possibility is that what it received never reached this "
        "buffer (a receive into a scratch buffer that is never copied or added into it); another, that what it "
        "received was its own input sent back (a send from memory that holds what this rank sent, such as a "
        "scratch the reduce-scatter received into).");
  two.mismatches[1].second = 320;  // one value that is not its own: no such sentence
  CHECK(diagnose_runs({"kept-own"}, {two}).empty());
  two.mismatch_own = {NAN, NAN};  // the check did not record the own input: nothing to say
  CHECK(diagnose_runs({"kept-own"}, {two}).empty());
}

TEST_CASE("right for root 0, wrong for every other root: ranks not counted from the root") {
  CheckRun r{4, 1, {{8, 0, 0}, {8, 2, 5}, {8, 3, 7}}, {}, {}, {}};
  CHECK(says(diagnose_runs({"root0"}, {r}), "right when the root is rank 0, wrong for every other root"));
  CHECK(says(diagnose_runs({"root0"}, {r}), "v = relative(rank, root, n)"));
  r.cases[0].wrong = 1;  // root 0 wrong too: not this
  CHECK(diagnose_runs({"root0"}, {r}).empty());
}

TEST_CASE("results recorded during a run read back as written") {
  char path[] = "/tmp/ringlab_results_XXXXXX";
  const int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  setenv("RINGLAB_CHECK_RESULTS", path, 1);
  ringlab::record_check_case(1000003, -1, 2);
  ringlab::record_check_case(8, 3, 0);
  ringlab::record_check_mismatch(22, -68.5);
  ringlab::record_check_mismatch(0.1, 0.30000000000000004, 0.2);  // with the rank's own input
  ringlab::record_check_departure("round 0 (root 0): rank 0 sent to rank 2,\nexpected rank 1");
  unsetenv("RINGLAB_CHECK_RESULTS");
  ringlab::record_check_case(1, 1, 1);  // not recorded: no file named
  const CheckRun r = ringlab::read_check_run(3, 1, path);
  std::remove(path);
  CHECK(r.np == 3);
  CHECK(r.rc == 1);
  REQUIRE(r.cases.size() == 2);
  CHECK(r.cases[0].count == 1000003);
  REQUIRE(r.departures.size() == 1);
  CHECK(r.departures[0] == "round 0 (root 0): rank 0 sent to rank 2, expected rank 1");
  CHECK(r.cases[0].root == -1);
  CHECK(r.cases[0].wrong == 2);
  CHECK(r.cases[1].root == 3);
  REQUIRE(r.mismatches.size() == 2);
  CHECK(r.mismatches[0] == std::pair<double, double>{22, -68.5});
  CHECK(r.mismatches[1].second == 0.30000000000000004);  // %.17g: exact
  REQUIRE(r.mismatch_own.size() == 2);
  CHECK(std::isnan(r.mismatch_own[0]));  // not recorded
  CHECK(r.mismatch_own[1] == 0.2);
  CHECK(ringlab::read_check_run(2, 4, "/nonexistent/results").cases.empty());
}

namespace {
// A failing run of a mean's check that recorded the factor k of its wrong values (NaN: NaN or inf).
CheckRun factor_run(int np, double k) {
  CheckRun r{np, 1, {}, {}, {}, {}};
  r.factors.push_back(k);
  return r;
}
}  // namespace

TEST_CASE("how the factor changes with n over the runs names the count: n/(n - 1), NaN where n - 1 = 0") {
  const std::vector<CheckRun> runs{factor_run(1, NAN), factor_run(2, 2), factor_run(3, 1.5), factor_run(4, 4.0 / 3)};
  const auto found = diagnose_runs({"factor-of-n"}, runs);
  REQUIRE(found.size() == 1);
  CHECK(found[0] ==
        "the wrong values are k times the right ones, k = NaN or inf on 1 rank, 2 on 2 ranks, 1.5 on 3 ranks, 1.33 "
        "on 4 ranks: k = n/(n - 1) for every number of ranks n — divided by n - 1 where the mean divides by n (on 1 "
        "rank n - 1 = 0: a division by zero).");
  SECTION("the sum: k = n, and the run on 1 rank passes") {
    CheckRun one{1, 0, {}, {}, {}, {}};
    CHECK(says(diagnose_runs({"factor-of-n"}, {one, factor_run(2, 2), factor_run(3, 3)}),
               "k = n for every number of ranks n — summed where the mean belongs"));
  }
  SECTION("a fixed divisor where n belongs: k = n/3, and the run on 3 ranks passes") {
    CheckRun three{3, 0, {}, {}, {}, {}};
    CHECK(says(diagnose_runs({"factor-of-n"}, {factor_run(1, 1.0 / 3), factor_run(2, 2.0 / 3), three,
                                               factor_run(4, 4.0 / 3)}),
               "k = n/3 for every number of ranks n — divided by the fixed number 3 where the number of ranks "
               "belongs (it passes on 3 ranks only) — divide by comm.size()"));
  }
  SECTION("2 ranks alone: n and n/(n - 1) both fit, nothing is said") {
    CHECK(diagnose_runs({"factor-of-n"}, {factor_run(2, 2)}).empty());
  }
  SECTION("a run that contradicts every formula, or recorded no factor: nothing") {
    CHECK(diagnose_runs({"factor-of-n"}, {factor_run(2, 2), factor_run(3, 1.6)}).empty());
    CHECK(diagnose_runs({"factor-of-n"}, {factor_run(2, 2), factor_run(3, 1.5), CheckRun{4, 1, {}, {}, {}, {}}}).empty());
  }
  SECTION("not when the exercise does not list it") { CHECK(diagnose_runs(kAll, runs).empty()); }
}

TEST_CASE("k = 0 from 2 on, right on 1: 1 / n computed in integers, over ranks or over a server's workers") {
  const CheckRun one{1, 0, {}, {}, {}, {}};
  CHECK(says(diagnose_runs({"factor-of-n"}, {one, factor_run(2, 0), factor_run(3, 0), factor_run(4, 0)}),
             "k = 0 on 2 ranks, 0 on 3 ranks, 0 on 4 ranks: k = 1/n in integers for every number of ranks n — 1 / n "
             "computed in integers, which is 1 for n = 1 and 0 from 2 on"));
  SECTION("a server's workers are np - 1: the run on 2 ranks has one worker and passes") {
    const CheckRun two{2, 0, {}, {}, {}, {}};
    CHECK(says(diagnose_runs({"factor-of-workers"}, {two, factor_run(3, 0), factor_run(4, 0)}),
               "k = 0 on 2 workers, 0 on 3 workers: k = 1/n in integers for every number of workers n"));
    // the same runs read as ranks: 2 ranks should have failed too, so nothing is said
    CHECK(diagnose_runs({"factor-of-n"}, {two, factor_run(3, 0), factor_run(4, 0)}).empty());
    // the sum where the mean belongs: k = workers
    CHECK(says(diagnose_runs({"factor-of-workers"}, {two, factor_run(3, 2), factor_run(4, 3)}),
               "k = n for every number of workers n — summed where the mean belongs"));
  }
  SECTION("one failing run is enough for k = 0 beside a run that passed (nothing else gives 0)") {
    CHECK(says(diagnose_runs({"factor-of-workers"}, {CheckRun{2, 0, {}, {}, {}, {}}, factor_run(3, 0)}),
               "k = 1/n in integers"));
    CHECK(diagnose_runs({"factor-of-workers"}, {factor_run(3, 0)}).empty());  // no run passed: no 1 to see
  }
  SECTION("zeros on 1 rank too (overwritten, not divided): nothing") {
    CHECK(diagnose_runs({"factor-of-n"}, {factor_run(1, 0), factor_run(2, 0), factor_run(3, 0)}).empty());
  }
  SECTION("zeros on 2 and 3 ranks with no run on 1 (--np few): overwritten fits as well, nothing") {
    CHECK(diagnose_runs({"factor-of-n"}, {factor_run(2, 0), factor_run(3, 0)}).empty());
  }
}

TEST_CASE("a run's factor is recorded and read back, NaN included") {
  char path[] = "/tmp/ringlab_factor_XXXXXX";
  const int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  setenv("RINGLAB_CHECK_RESULTS", path, 1);
  ringlab::record_check_relation({{ringlab::Relation::own, 1, "1"}, {ringlab::Relation::factor, 1.5, "n/(n - 1)"}});
  ringlab::record_check_relation({{ringlab::Relation::not_finite}});
  ringlab::record_check_relation({{ringlab::Relation::zero}});  // every wrong value 0: 0 times the right one
  ringlab::record_check_relation({{ringlab::Relation::own, 1, "1"}});  // no factor: nothing
  ringlab::record_check_factor(0.25);
  unsetenv("RINGLAB_CHECK_RESULTS");
  const CheckRun r = ringlab::read_check_run(3, 1, path);
  std::remove(path);
  REQUIRE(r.factors.size() == 4);
  CHECK(r.factors[0] == 1.5);
  CHECK(std::isnan(r.factors[1]));
  CHECK(r.factors[2] == 0);
  CHECK(r.factors[3] == 0.25);
}
