// What a wrong SGD-with-momentum step says, for the checks of the lessons that take one (06, 09).
// The step: velocity = momentum * velocity + grad, then weights -= lr * velocity.
//  - The velocity lost: a step after the first that moved every wrong weight as a step from rest
//    moves it (-lr * the mean gradient, as if the velocity were 0), though the velocity before it
//    was not 0. Step 0 starts from rest, so it is right and cannot show this; from step 1 on the
//    momentum * velocity term is missing: the velocity zeroed before the update, a fresh velocity
//    buffer each step, momentum 0 passed.
//  - lr and momentum swapped: from rest the weights move lr * grad, so a step that moved
//    momentum / lr times as far took the momentum as its learning rate.
#pragma once
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "ringlab/base/plural.hpp"
#include "ringlab/check/value_relation.hpp"
#include "shared/format.hpp"

namespace lessons {

// The velocity lost: every wrong weight index[e] moved wrong[e].got, which is -lr * mean[i] (a
// step from rest) to `rounding(i)` and 1e-4 of it, and some moved at all. The sentence then:
// WHERE: N wrong values, e.g. [i] expected E got G; what they did, and the cause. "" otherwise.
template <class Mean, class Rounding>
std::string velocity_lost(const std::string& where, const std::vector<ringlab::ValueEvidence>& wrong,
                          const std::vector<long long>& index, float lr, const Mean& mean, Rounding rounding) {
  bool any = false;
  for (std::size_t e = 0; e < wrong.size(); ++e) {
    const std::size_t i = static_cast<std::size_t>(index[e]);
    const double rest = -double(lr) * mean[i];
    if (!(std::fabs(wrong[e].got - rest) <= 1e-4 * std::fabs(rest) + rounding(i))) return "";
    any = any || rest != 0;
  }
  if (!any) return "";
  return where + ": " + ringlab::plural(static_cast<long long>(wrong.size()), "wrong value") + ", e.g. [" +
         std::to_string(index.front()) + "] expected " + format("%g", wrong.front().expected) + " got " +
         format("%g", wrong.front().got) +
         "; every one moved as a step from velocity 0 moves it (lr * grad), though the velocity before the "
         "step was not 0: the velocity did not carry over from the step before — it was set to 0 (or the "
         "momentum left out) before the update. The update must find the velocity the previous step left.";
}

// The factor momentum / lr, named, and its cause (a step from rest only), for value_relation's
// explain(): `update` is the call that takes both ("sgd_momentum_update").
inline ringlab::NamedFactor lr_momentum_swapped_factor(float lr, float momentum) {
  return {double(momentum) / double(lr), "momentum / lr = " + format("%g / %g", double(momentum), double(lr))};
}
inline ringlab::CauseOf lr_momentum_swapped_cause(float lr, float momentum, const std::string& update) {
  return {ringlab::Relation::factor,
          "the step used the momentum where the learning rate belongs (from velocity 0 the weights move lr * "
          "grad); one possibility is lr and momentum passed in each other's place to " + update,
          double(momentum) / double(lr)};
}

}  // namespace lessons
