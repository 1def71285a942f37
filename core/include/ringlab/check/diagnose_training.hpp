// What a run of training steps says is wrong: the parameters after each step, against a
// reference that took the same steps from the same start in one process. It finds the FIRST
// step that went wrong and says why:
//   - step 0 already wrong: how far each parameter moved against how far it should have —
//     not at all (the update is missing), n/m times as far (a mean over n gradients divided by
//     m: m = 1 is the sum), the wrong way (a sign), or by another common factor; with no common
//     factor, how the move relates to each gradient's part of it (only the last one's: the sum
//     overwritten; one part twice);
//   - step 0 right and a later step wrong: how that step's move relates to the right one
//     (value_relation.hpp). The right move plus the step before's again: something carries over
//     (a sum not reset); anything else only makes that one possibility, since a wrong order of
//     operations also gives a right first step and a wrong second one.
// Each sentence shows its evidence (a parameter, how far it moved, how far it should have) and
// names a cause firmly only when the evidence singles it out; otherwise "one possibility is".
// One sentence, or "" when the steps are right or step 0 has no common factor (no blame without
// evidence).
// Unit-tested with data alone: tests/core/test_diagnose_training.cpp.
#pragma once
#include <string>
#include <vector>

namespace ringlab {

// start: the parameters before step 0; expected[k], actual[k]: after step k. n: how many
// gradients the step averages; mean_of: how the code names n ("the number of workers,
// comm.size() - 1"), for the advice. parts (optional): parts[k][j][i] is what gradient j adds
// to parameter i's right move in step k, in the order the gradients arrive: a move that is
// only the last one's (overwritten, not added) or has one twice is told from them.
// step0_factor (optional): set to how many times as far as it should every parameter moved in a
// wrong step 0 (0: not at all), when one factor holds for all; left alone otherwise. A check
// records it (record_check_factor), so that its runs together can name what one run cannot.
std::string diagnose_training(const std::vector<double>& start,
                              const std::vector<std::vector<double>>& expected,
                              const std::vector<std::vector<double>>& actual, int n,
                              const std::string& mean_of,
                              const std::vector<std::vector<std::vector<double>>>& parts = {},
                              double* step0_factor = nullptr);

}  // namespace ringlab
