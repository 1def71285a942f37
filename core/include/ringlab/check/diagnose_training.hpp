// What a run of training steps says is wrong: the parameters after each step, against a
// reference that took the same steps from the same start in one process. Where check.hpp's
// diagnose_step looks at one step, this finds the FIRST step that went wrong and says why:
//   - step 0 already wrong: how far each parameter moved against how far it should have —
//     not at all (the update is missing), n/m times as far (a mean over n gradients divided by
//     m: m = 1 is the sum), the wrong way (a sign), or by another common factor;
//   - step 0 right and a later step wrong: something carries over from one step to the next
//     (a sum not reset, a buffer reused), since the same code gave the right first step.
// One sentence, or "" when the steps are right or no pattern fits (no blame without evidence).
// Unit-tested with data alone: tests/core/test_diagnose_training.cpp.
#pragma once
#include <string>
#include <vector>

namespace ringlab {

// start: the parameters before step 0; expected[k], actual[k]: after step k. n: how many
// gradients the step averages; mean_of: how the code names n ("the number of workers,
// comm.size() - 1"), for the advice.
std::string diagnose_training(const std::vector<double>& start,
                              const std::vector<std::vector<double>>& expected,
                              const std::vector<std::vector<double>>& actual, int n,
                              const std::string& mean_of);

}  // namespace ringlab
