// What a wrong SGD-with-momentum step says, for the checks of the lessons that take one (06, 09).
// The step: velocity = momentum * velocity + grad, then weights -= lr * velocity.
//  - The velocity lost: a step after the first that moved every wrong weight as a step from rest
//    moves it (-lr * the mean gradient, as if the velocity were 0), though the velocity before it
//    was not 0. Step 0 starts from rest, so it is right and cannot show this; from step 1 on the
//    momentum * velocity term is missing: the velocity zeroed before the update, a fresh velocity
//    buffer each step, momentum 0 passed.
//  - lr and momentum swapped: from rest the weights move lr * grad, so a step that moved
//    momentum / lr times as far took the momentum as its learning rate.
//  - Two numbers, when no single factor says it (fit_two_terms): how far every wrong weight moved
//    is a * x + b * grad for one a and b. From rest, x = the weights before: a = momentum - 1,
//    b = 1 is the velocity's formula written into the weights (params and velocity swapped).
//    After it, x = the velocity before: b = -lr, a = -lr * k carried the velocity over times k
//    where the momentum belongs (k = 1 - momentum: the momentum passed as 1 - momentum; k =
//    momentum squared: the velocity scaled by the momentum besides the update).
//  - The gradient put into the velocity before the update: from rest the update then makes
//    momentum * grad + grad, so the weights move 1 + momentum times as far as they should.
#pragma once
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "ringlab/base/plural.hpp"
#include "ringlab/check/value_relation.hpp"
#include "shared/format.hpp"

namespace lessons {

// "WHERE: N wrong values, e.g. [i] expected E got G", the head of a sentence about them.
inline std::string wrong_values(const std::string& where, const std::vector<ringlab::ValueEvidence>& wrong,
                                const std::vector<long long>& index) {
  return where + ": " + ringlab::plural(static_cast<long long>(wrong.size()), "wrong value") + ", e.g. [" +
         std::to_string(index.front()) + "] expected " + format("%g", wrong.front().expected) + " got " +
         format("%g", wrong.front().got);
}

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
  return wrong_values(where, wrong, index) +
         "; every one moved as a step from velocity 0 moves it (lr * grad), though the velocity before the "
         "step was not 0: the velocity did not carry over from the step before — it was set to 0 (or the "
         "momentum left out) before the update. The update must find the velocity the previous step left.";
}

// wrong[e].got = a * x[i] + b * y[i] at every wrong place i = index[e], for one a and b, each within
// its rounding and 1e-4 of the move (least squares for the two, then every place checked);
// nullopt when no a and b fit them all, or x and y are not apart.
struct TwoTerms {
  double a, b;
};
template <class X, class Y>
std::optional<TwoTerms> fit_two_terms(const std::vector<ringlab::ValueEvidence>& wrong,
                                      const std::vector<long long>& index, const X& x, const Y& y) {
  auto at = [&](const auto& v, std::size_t e) { return double(v[static_cast<std::size_t>(index[e])]); };
  double xx = 0, xy = 0, yy = 0, gx = 0, gy = 0;
  for (std::size_t e = 0; e < wrong.size(); ++e) {
    const double xe = at(x, e), ye = at(y, e), got = wrong[e].got;
    if (!std::isfinite(got)) return std::nullopt;
    xx += xe * xe, xy += xe * ye, yy += ye * ye, gx += got * xe, gy += got * ye;
  }
  const double det = xx * yy - xy * xy;
  if (wrong.size() < 3 || !(std::fabs(det) > 1e-9 * xx * yy)) return std::nullopt;
  const TwoTerms t{(gx * yy - gy * xy) / det, (gy * xx - gx * xy) / det};
  for (std::size_t e = 0; e < wrong.size(); ++e) {
    const double fit = t.a * at(x, e) + t.b * at(y, e);
    if (!(std::fabs(wrong[e].got - fit) <= 1e-4 * std::fabs(fit) + wrong[e].rounding)) return std::nullopt;
  }
  return t;
}

// From rest, every wrong weight moved (momentum - 1) * its value before + grad: it holds
// momentum * weight + grad, the velocity's formula (velocity = momentum * velocity + grad) — the
// weights and the velocity were passed in each other's places. `moved` is fit_two_terms' a and b
// for x = the weights before, y = the gradient. "" when they say something else.
inline std::string params_velocity_swapped(const TwoTerms& moved, float momentum, const std::string& update) {
  const double m = momentum;
  if (!(std::fabs(moved.a - (m - 1)) <= 1e-3 && std::fabs(moved.b - 1) <= 1e-3)) return "";
  return "every wrong weight now holds momentum * its value before + the gradient (" + format("%g", m) +
         " * w + g): that is the velocity's formula (velocity = momentum * velocity + grad) written into the "
         "weights — the weights and the velocity were passed in each other's places to " + update + ".";
}

// After the first step, every wrong weight moved a * the velocity before + b * grad. b = -lr with
// a = -lr * k: the update carried the velocity over times k where the momentum belongs. "" when
// they say something else, or k is 0 (velocity_lost's case) or the momentum. (n: the ranks.)
inline std::string momentum_carried(const TwoTerms& moved, float lr, float momentum, int n) {
  const double k = moved.a / -double(lr), m = momentum;
  if (!(std::fabs(moved.b / -double(lr) - 1) <= 1e-3) || std::fabs(k) <= 1e-3 || std::fabs(k - m) <= 1e-3) return "";
  const std::string carried = "every one moved -lr * (" + format("%.4g", k) +
                              " * the velocity before + the gradient): the velocity was carried over times " +
                              format("%.4g", k) + " where the momentum (" + format("%g", m) + ") belongs";
  if (std::fabs(k - (1 - m)) <= 1e-3)
    return carried + " — 1 - momentum was passed as the momentum (v = momentum * v + grad keeps momentum of the "
                     "old velocity, not 1 - momentum).";
  if (std::fabs(k - m * m) <= 1e-3)
    return carried + " — momentum squared: the momentum was applied twice, the velocity scaled by it besides the "
                     "update, which already multiplies the velocity by the momentum (v = momentum * v + grad).";
  if (n > 1 && std::fabs(k - m / n) <= 1e-3 * m)
    return carried + " — momentum / n: the velocity was divided by n (" + std::to_string(n) +
           ") besides the update; only the gradient is averaged over the ranks, the velocity never is.";
  // Either side can make any k: say both, blame neither.
  return carried + " — one possibility is another number handed to the update as its momentum; another, the "
                   "velocity scaled by " + format("%.4g", k / m) + " besides the update.";
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

// The factor 1 + momentum, named, and its cause (a step from rest only): the velocity came into
// the update holding the gradient already (copied or added there), and the update added it again.
inline ringlab::NamedFactor gradient_in_velocity_factor(float momentum) {
  return {1 + double(momentum), "1 + momentum = " + format("%g", 1 + double(momentum))};
}
inline ringlab::CauseOf gradient_in_velocity_cause(float momentum, const std::string& update) {
  return {ringlab::Relation::factor,
          "the velocity came into " + update + " holding the gradient already (from velocity 0 the update makes "
          "momentum * grad + grad): the velocity is the optimizer's state, only " + update + " writes it",
          1 + double(momentum)};
}

// The factor momentum on the gradient the step read back, with the velocity still 0 after a step
// from rest: the update wrote its new velocity, momentum * v + g with v the gradient, into the
// gradient's buffer, and its own velocity (in the gradient's place) added nothing: the gradient
// and the velocity were handed to the update in each other's place.
inline ringlab::NamedFactor momentum_factor(float momentum) {
  return {double(momentum), "the momentum = " + format("%g", double(momentum))};
}
inline ringlab::CauseOf grad_velocity_swapped_cause(float momentum, const std::string& update) {
  return {ringlab::Relation::factor,
          "the gradient holds momentum * gradient and the velocity is still 0 after the step: the update wrote "
          "its new velocity into the gradient — the gradient and the velocity were passed in each other's place "
          "to " + update,
          double(momentum)};
}

}  // namespace lessons
