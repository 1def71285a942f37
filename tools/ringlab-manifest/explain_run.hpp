// What a failed check run printed that says what went wrong, picked out of everything it printed
// (`ringlab-manifest explain`, under each FAIL line of `./ringlab check`):
//   - the rows of the lesson's check table whose #wrong (the last column) is not 0: they name
//     the case (count, type, root, ...), with the table's header line above them;
//   - the lines that show the first differing elements (ringlab::describe: "[i] expected e got a"),
//     "[rank 1/3] error: " shortened to "rank 1: ";
//   - the watchdog's report of a hang, from "ringlab watchdog: ranks blocked" to "stopping every rank";
//   - "diagnosis: " lines, "error:" lines, " WRONG" lines and the "FAILED" line.
// Brief (every run after the first failed one): one line, the first of what applies of a
// diagnosis, "N wrong case(s); the first: count=.. type=..", the hang, an error, a difference.
// Text in, lines out: tested in tests/core/test_explain_run.cpp.
#pragma once
#include <istream>
#include <string>
#include <vector>

namespace ringlab {

// The lines to show, each indented as `./ringlab check` prints them under the FAIL line.
std::vector<std::string> explain_run(std::istream& output, bool brief);

}  // namespace ringlab
