// Lesson 06's --check: every checked step against one process taking the same step.
//   part 1  the averaged gradient == the one-process gradient of the whole global batch
//   part 2  the step itself: the weights' change and the new velocity against a step written
//           here a second time, in double, independently of the lesson's sgd_momentum_update:
//           velocity' = momentum * velocity + g;  params' = params - lr * velocity'
//   part 3  the replicas bit-identical after every step
// The first wrong quantity, in the order the step computes them, gets one diagnosis (check.hpp
// of the core: diagnose_values, diagnose_step).
#pragma once
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "ringlab/ringlab.hpp"
#include "shared/replica.hpp"
#include "shared/training.hpp"

namespace lesson06 {
using lessons::sci;

// The weights' change after a step may differ from the one-process step by the rounding of the
// averaged gradient (~1e-6) and of float weights (~1e-4 of a small step): 1e-3 leaves room for
// both and catches a step skipped, doubled or scaled wrong.
constexpr double kStepTolerance = 1e-3;
constexpr double kGradientTolerance = 1e-5;

class StepCheck {
 public:
  explicit StepCheck(ringlab::Communicator& comm) : comm_(comm) {}

  // Before the distributed step, while the parameters are still this step's: the one-process
  // gradient of examples [first, first + batch) of the epoch's order, and the reference step.
  void before_step(lessons::Replica& replica, const lessons::TrainingState& state, int first, int batch,
                   float lr, float momentum) {
    replica.whole_gradient(first, batch, whole_grad_);
    replica.sync_to_host();
    params_ = state.params;
    velocity_ = state.velocity;
    params_after_.resize(params_.size());
    velocity_after_.resize(params_.size());
    for (std::size_t i = 0; i < params_.size(); ++i) {
      velocity_after_[i] = double(momentum) * velocity_[i] + whole_grad_[i];
      params_after_[i] = params_[i] - double(lr) * velocity_after_[i];
    }
  }

  // After it (the state on the host): parts 1 and 2, one line per checked step.
  void after_step(lessons::Replica& replica, const lessons::TrainingState& state, long long epoch) {
    using ringlab::View;
    const int n = comm_.size();
    const std::vector<float>& grad = replica.grad_on_host();
    const double err = comm_.max(lessons::relative_error(grad, whole_grad_));
    if (err > kGradientTolerance && comm_.rank() == 0)  // where they differ: the first elements, both values
      ringlab::log(ringlab::Level::error) << "averaged gradient vs one process: "
                                          << ringlab::describe(ringlab::compare<float>(
                                                 View<const float>(whole_grad_), View<const float>(grad), 1));
    worst_gradient_ = std::max(worst_gradient_, err);
    const double worst = std::max(comm_.max(step_error(state)),
                                  comm_.max(lessons::relative_error(state.velocity, velocity_after_)));
    worst_step_ = std::max(worst_step_, worst);
    if (comm_.rank() == 0 && (err > kGradientTolerance || worst > kStepTolerance) && !explained_) {
      explained_ = true;  // one explanation: where the values differ, then why
      const std::vector<float> ref_after(params_after_.begin(), params_after_.end());
      if (err > kGradientTolerance) {  // (the values were logged just above)
        cause_ = ringlab::diagnose_values("the averaged gradient", View<const float>(whole_grad_),
                                          View<const float>(grad), n);
      } else {
        ringlab::log(ringlab::Level::error)
            << "weights after step " << state.step << " vs one process taking it: "
            << ringlab::describe(ringlab::compare<float>(View<const float>(ref_after), View<const float>(state.params), 1));
        cause_ = ringlab::diagnose_step(View<const float>(params_), View<const float>(ref_after),
                                        View<const float>(state.params), n);
      }
    }
    ringlab::print_once(comm_, "check: epoch " + std::to_string(epoch + 1) + " step " + std::to_string(state.step) +
                                   ": averaged gradient of " + ringlab::plural(n, "rank") +
                                   " vs one process, max rel. diff " + sci(err) +
                                   (err <= kGradientTolerance ? " ok" : " WRONG (> 1e-5)") +
                                   "; weights and velocity after the step " + sci(worst) +
                                   (worst <= kStepTolerance ? " ok" : " WRONG (> 1e-3)") + "\n");
  }

  // Part 3, after every step.
  void replicas(const lessons::TrainingState& state) {
    if (lessons::replicas_identical(comm_, state.params, state.velocity)) return;
    identical_ = false;
    ringlab::print_once(comm_, "check: step " + std::to_string(state.step) + ": replicas differ WRONG\n");
    if (cause_.empty() && comm_.size() > 1)
      cause_ = "the replicas differ after step " + std::to_string(state.step) +
               ": the ranks took different steps, so each used its own gradient — your average hole "
               "must combine every rank's gradient before any rank updates its weights.";
  }

  // The verdict: the diagnosis if something was wrong, the summary, the exit code.
  int finish() {
    const bool ok = identical_ && worst_gradient_ <= kGradientTolerance && worst_step_ <= kStepTolerance;
    if (!cause_.empty()) ringlab::print_once(comm_, "diagnosis: " + cause_ + "\n");
    ringlab::print_once(comm_, std::string("check: ") +
                                   (identical_ ? "replicas bit-identical after every step" : "replicas DIFFER") +
                                   ", worst gradient difference " + sci(worst_gradient_) +
                                   ", worst step difference " + sci(worst_step_) + (ok ? ": PASSED\n" : ": FAILED\n"));
    return ok ? 0 : 1;
  }

 private:
  // The weights' change (after - before), reference's and ours, so that a small step on large
  // weights is compared at its own scale.
  double step_error(const lessons::TrainingState& after) const {
    std::vector<double> want(params_.size()), got(params_.size());
    for (std::size_t i = 0; i < params_.size(); ++i) {
      want[i] = params_after_[i] - params_[i];
      got[i] = double(after.params[i]) - params_[i];
    }
    return lessons::relative_error(got, want);
  }

  ringlab::Communicator& comm_;
  std::vector<float> whole_grad_, params_, velocity_;  // the one-process gradient; the state before the step
  std::vector<double> params_after_, velocity_after_;  // the reference step's result
  double worst_gradient_ = 0, worst_step_ = 0;
  bool identical_ = true, explained_ = false;
  std::string cause_;  // the first wrong quantity's diagnosis (only rank 0 looks at values)
};

}  // namespace lesson06
