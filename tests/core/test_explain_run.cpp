// What `./ringlab check` shows under a failed run (tools/ringlab-manifest/explain_run.hpp): from
// everything a lesson printed, the wrong rows of its check table, the first differing elements,
// the diagnosis, the watchdog's report; and the one line it shows for every later failed run.
#include <sstream>

#include "catch.hpp"
#include "explain_run.hpp"

using ringlab::explain_run;
using Lines = std::vector<std::string>;

namespace {
Lines explain(const std::string& output, bool brief = false) {
  std::istringstream in(output);
  return explain_run(in, brief);
}

// A ring allreduce that is wrong where count is not a multiple of 3, as lesson 05 prints it.
const char* kWrong = R"(# int32: must match exactly
impl       count    type  #wrong
[rank 1/3] error: ring count 1: 1 wrong; first: [0] expected 6 got 2;
[rank 2/3] error: ring count 1: 1 wrong; first: [0] expected 6 got 2;
ring           0   int32       0
ring           1   int32       2
ring          12   int32       0
ring     1000003   int32       2
diagnosis: the reduce-scatter misses the last chunk
diagnosis: the reduce-scatter misses the last chunk
FAILED: 4 wrong elements
)";
}  // namespace

TEST_CASE("a failed run is explained by its wrong rows, its first differences and its diagnosis") {
  CHECK(explain(kWrong) == Lines{
                               "    impl       count    type  #wrong",
                               "    ring           1   int32       2",
                               "    ring     1000003   int32       2",
                               "    first differing elements ([index] expected, got):",
                               "      rank 1: ring count 1: 1 wrong; first: [0] expected 6 got 2;",
                               "      rank 2: ring count 1: 1 wrong; first: [0] expected 6 got 2;",
                               "    diagnosis: the reduce-scatter misses the last chunk",
                               "    FAILED: 4 wrong elements",
                           });
}

TEST_CASE("after the first failed run, one line: the diagnosis, else the first wrong case") {
  CHECK(explain(kWrong, true) == Lines{"    diagnosis: the reduce-scatter misses the last chunk"});
  CHECK(explain("impl count type #wrong\nring 0 int32 0\nring 5 int32 1\nring 7 int32 1\n", true) ==
        Lines{"    2 wrong case(s); the first: impl=ring count=5 type=int32 #wrong=1"});
  CHECK(explain("all is well\n", true).empty());
}

TEST_CASE("a hang is explained by the watchdog's report, whole") {
  const std::string out =
      "impl count #wrong\n"
      "ringlab watchdog: ranks blocked for more than 5 s in a point-to-point call:\n"
      "  rank 0 waits to send to 1\n"
      "ringlab watchdog: stopping every rank (exit code 3)\n"
      "after it\n";
  CHECK(explain(out) ==
        Lines{"    ringlab watchdog: ranks blocked for more than 5 s in a point-to-point call:",
              "      rank 0 waits to send to 1", "    ringlab watchdog: stopping every rank (exit code 3)"});
  CHECK(explain(out, true) ==
        Lines{"    ringlab watchdog: ranks blocked for more than 5 s in a point-to-point call:"});
}

TEST_CASE("errors, WRONG lines and the count of more than six wrong rows are shown") {
  std::string out = "error: --type int8 is not known\nschedule WRONG: ring departs\nx #wrong\n";
  for (int i = 1; i <= 8; ++i) out += std::string("c") + std::to_string(i) + " 1\n";
  const Lines lines = explain(out);
  REQUIRE(lines.size() == 10);
  CHECK(lines[0] == "    schedule WRONG: ring departs");
  CHECK(lines[1] == "    error: --type int8 is not known");
  CHECK(lines[2] == "    x #wrong");
  CHECK(lines[3] == "    c1 1");
  CHECK(lines[9] == "    ... 2 more wrong cases");
}

TEST_CASE("an error line that says WRONG is shown once") {
  const Lines lines = explain("[rank 0/1] error: step 0: schedule WRONG: bucket 0 never started\n"
                              "check: bucket on 1 rank: schedule WRONG. FAILED\n");
  CHECK(lines == Lines{"    check: bucket on 1 rank: schedule WRONG. FAILED",
                       "    [rank 0/1] error: step 0: schedule WRONG: bucket 0 never started"});
}

TEST_CASE("a hang says what the check printed last before it: where the check was") {
  const std::string out =
      "chain sum  1 terms per rank (2 in all): #wrong 0\n"
      "chain sum  3 terms per rank, rank 0's weights all 0: its partial sum is 0, passed on like any other\n"
      "ringlab watchdog: ranks blocked for more than 5 s in a point-to-point call:\n"
      "  rank 1 waits to receive from 0\n"
      "ringlab watchdog: stopping every rank (exit code 3)\n";
  CHECK(explain(out) ==
        Lines{"    the check's last line before the hang: chain sum  3 terms per rank, rank 0's weights all 0: its "
              "partial sum is 0, passed on like any other",
              "    ringlab watchdog: ranks blocked for more than 5 s in a point-to-point call:",
              "      rank 1 waits to receive from 0", "    ringlab watchdog: stopping every rank (exit code 3)"});
}

TEST_CASE("a diagnosis that quotes a wrong value is a diagnosis, not a difference: the one line of a later run") {
  const std::string out =
      "check: sync PS vs one process #wrong 300006\n"
      "diagnosis: step 0 is wrong; 9 wrong values, e.g. [0] expected -0.04 got -0.005; weights 1/2 and 1\n";
  CHECK(explain(out, true) ==
        Lines{"    diagnosis: step 0 is wrong; 9 wrong values, e.g. [0] expected -0.04 got -0.005; weights 1/2 and 1"});
  CHECK(explain(out).back() ==
        "    diagnosis: step 0 is wrong; 9 wrong values, e.g. [0] expected -0.04 got -0.005; weights 1/2 and 1");
}
