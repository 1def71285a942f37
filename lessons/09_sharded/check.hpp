// Lesson 09's --check: every stage against stage 0 (lesson 06's data parallelism), each from the
// same initial model, over the same kSteps global batches.
//   part 1  every step's averaged gradient, gathered from the shards, == the one-process gradient
//           of the whole global batch (within 1e-5, as lesson 06's check)
//   part 2  after kSteps steps, the whole model (parameters and momentum, gathered from the
//           shards) == stage 0's. On 1 or 2 ranks bit for bit: every element's sum then has a
//           single order (x0 + x1 == x1 + x0, exactly), so nothing but a wrong step can differ.
//           On 3 or more ranks, within 1e-5 of the largest element: the allreduce (lesson 05's
//           schedule) starts each chunk's sum at another rank than reduce_scatter does, so some
//           sums round differently in their last bit (2^-24 = 6e-8 relative), which makes the
//           averaged gradients differ by a few 1e-7 (what part 1 sees as well); the momentum is a
//           sum of those gradients, the parameters move by lr times it, so after a few steps both
//           differ by a few 1e-7 (measured: 2e-7 at np 4), and the gradient's tolerance, 1e-5,
//           bounds them. A shard left out of the update, updated twice or averaged wrong moves
//           its elements by about the step itself: 1e-3 of the largest and more.
//   part 3  the shards agree: every rank gathers the same model, bit for bit (stages 1 and 2,
//           which keep the whole parameters, hold identical replicas, as lesson 06's ranks do)
#pragma once
#include <cstring>
#include <string>
#include <vector>

#include "ringlab/ringlab.hpp"
#include "sharded_optimizer.hpp"
#include "shared/training.hpp"

namespace lesson09 {
using lessons::sci;

constexpr int kSteps = 5;
constexpr double kGradientTolerance = 1e-5;
constexpr double kModelTolerance = 1e-5;

inline std::vector<float> to_host(View<float> v) {
  std::vector<float> h(v.size());
  ringlab::copy(View<float>(h), View<const float>(v));
  return h;
}

// Checks `stages` (stage 0 is always run first, as the reference) on examples order[0, kSteps *
// batch) of `set`. Returns the exit code: 0 when every part holds for every stage.
inline int run_check(Communicator& comm, ringlab::LayerwiseModel& model, std::vector<int> stages,
                     const std::vector<float>& initial, int set, int batch, float lr, float momentum) {
  const int n = comm.size(), part = batch / n;
  Buffer<float> whole(model.parameter_count(), comm.where()),
      one_process(model.parameter_count(), comm.where());
  std::vector<float> ref_params, ref_velocity;
  bool all_ok = true;
  if (stages.front() != 0) stages.insert(stages.begin(), 0);
  for (int stage : stages) {
    ShardedState st(comm, model, stage, initial);
    double worst_gradient = 0;
    for (int s = 0; s < kSteps; ++s) {
      st.gather(ShardedState::What::params, whole.view());  // the model this step starts from
      model.loss_and_gradient(whole.view().data(), set, s * batch, batch, one_process.view().data());
      st.step(set, s * batch + comm.rank() * part, part, lr, momentum);
      st.gather(ShardedState::What::grad, whole.view());
      worst_gradient =
          std::max(worst_gradient,
                   comm.max(lessons::relative_error(to_host(whole.view()), to_host(one_process.view()))));
    }
    model.take_loss_sum();  // (the check's losses are not reported)
    st.gather(ShardedState::What::params, whole.view());
    const std::vector<float> params = to_host(whole.view());
    st.gather(ShardedState::What::velocity, whole.view());
    const std::vector<float> velocity = to_host(whole.view());
    const bool agree = lessons::replicas_identical(comm, params, velocity);

    std::string versus = "the reference";
    bool same = true;
    if (stage == 0) {
      ref_params = params;
      ref_velocity = velocity;
    } else if (n <= 2) {
      same = std::memcmp(params.data(), ref_params.data(), params.size() * sizeof(float)) == 0 &&
             std::memcmp(velocity.data(), ref_velocity.data(), velocity.size() * sizeof(float)) == 0;
      same = comm.all_ok(same);
      versus = same ? "bit-identical to stage 0's ok" : "NOT bit-identical to stage 0's WRONG";
    } else {
      const double d = comm.max(std::max(lessons::relative_error(params, ref_params),
                                         lessons::relative_error(velocity, ref_velocity)));
      same = d <= kModelTolerance;
      versus = "vs stage 0's " + sci(d) + (same ? " ok" : " WRONG (> 1e-5)");
    }
    const bool gradient_ok = worst_gradient <= kGradientTolerance;
    all_ok = all_ok && agree && same && gradient_ok;
    ringlab::print_once(comm, "check: stage " + std::to_string(stage) + ", " + std::to_string(kSteps) +
                                  " steps: averaged gradient vs one process " + sci(worst_gradient) +
                                  (gradient_ok ? " ok" : " WRONG (> 1e-5)") + "; model " + versus +
                                  "; shards " +
                                  (agree ? "agree on every rank ok" : "DIFFER between ranks WRONG") + "\n");
  }
  ringlab::print_once(
      comm, std::string("check: every stage holds stage 0's model: ") + (all_ok ? "PASSED\n" : "FAILED\n"));
  return all_ok ? 0 : 1;
}

}  // namespace lesson09
