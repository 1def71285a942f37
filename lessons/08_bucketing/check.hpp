// Lesson 08's --check, every step:
//   the averaged gradient == the same local gradient averaged lesson 06's way, all at once
//   the replicas bit-identical after the update
//   the bucket schedule (schedule_problem): the averaged gradient can be right while the
//   overlap is lost (a bucket packed in forward order, a wait right after each start). The
//   scheduler logs what it did in one step; this reads the log and says what is wrong, if
//   anything, in one line ("" when the schedule is right).
#pragma once
#include <algorithm>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "gradient_buckets.hpp"
#include "ringlab/ml/mlp.hpp"
#include "shared/training.hpp"
#include "step.hpp"

namespace lesson08 {

inline std::string tensor_name(const Mlp::Tensor& t) {
  std::string name = (t.is_weight ? "W" : "b") + std::to_string(t.layer);
  if (t.block)  // one block of a split W's rows
    name += "[rows " + std::to_string(t.first_row) + "-" + std::to_string(t.first_row + t.rows - 1) + "]";
  return name;
}

inline std::string schedule_problem(const BucketScheduler& s, const std::vector<Mlp::Tensor>& tensors) {
  using Event = BucketScheduler::Event;
  const auto& buckets = s.buckets();
  // 1. Every tensor in exactly one bucket, or its gradient is never averaged.
  std::vector<int> in(tensors.size(), 0);
  for (const auto& b : buckets)
    for (int t : b.tensors) ++in[static_cast<std::size_t>(t)];
  std::string missing;
  std::size_t how_many = 0;
  for (std::size_t t = 0; t < tensors.size(); ++t)
    if (in[t] != 1) missing += (missing.empty() ? "" : ", ") + tensor_name(tensors[t]), ++how_many;
  if (how_many == tensors.size() && buckets.empty())
    return "plan_buckets made no bucket: no gradient is averaged";
  if (!missing.empty())
    return "tensors " + missing + " are not in exactly one bucket: a tensor in no bucket is never averaged " +
           "(did the last, partial bucket get added?)";

  // 2. Packed in backward order: read bucket 0, 1, 2, ... one after the other, and the tensors
  //    come in the order the backward pass made them ready (the last tensor first).
  const auto& log = s.log();
  std::vector<int> ready_order, packed;
  int last_ready = -1;
  for (std::size_t i = 0; i < log.size(); ++i)
    if (log[i].kind == Event::ready) ready_order.push_back(log[i].index), last_ready = static_cast<int>(i);
  for (const auto& b : buckets) packed.insert(packed.end(), b.tensors.begin(), b.tensors.end());
  for (std::size_t k = 0, b = 0, in_b = 0; k < packed.size() && k < ready_order.size(); ++k, ++in_b) {
    while (in_b >= buckets[b].tensors.size()) ++b, in_b = 0;
    if (packed[k] != ready_order[k])
      return "bucket " + std::to_string(b) + " holds " + tensor_name(tensors[packed[k]]) +
             " where the backward pass makes " + tensor_name(tensors[ready_order[k]]) +
             " ready: pack the tensors in backward order (" + tensor_name(tensors[ready_order[0]]) +
             " first), or a bucket waits for gradients computed long after its first";
  }

  // 3. Each bucket starts the moment its last gradient is ready, once, and nothing is waited for
  //    while the backward pass still runs.
  std::set<int> ready, started;
  for (std::size_t i = 0; i < log.size(); ++i) {
    const Event& e = log[i];
    if (e.kind == Event::ready) {
      ready.insert(e.index);
      continue;
    }
    const auto& b = buckets[static_cast<std::size_t>(e.index)];
    if (e.kind == Event::wait) {
      if (static_cast<int>(i) < last_ready)
        return "waited for bucket " + std::to_string(e.index) +
               " while the backward pass still had gradients to compute: it stood still until that "
               "allreduce finished (start in gradient_ready, wait only in finish)";
      continue;
    }
    if (!started.insert(e.index).second) return "bucket " + std::to_string(e.index) + " started twice";
    for (int t : b.tensors)
      if (!ready.count(t))
        return "bucket " + std::to_string(e.index) + " started before " + tensor_name(tensors[t]) +
               " was ready";
    if (i == 0 || log[i - 1].kind != Event::ready)
      return "bucket " + std::to_string(e.index) + " did not start the moment its last gradient was ready";
  }
  if (started.size() != buckets.size())
    return std::to_string(buckets.size() - started.size()) + " bucket(s) never started";
  std::set<int> waited;
  for (const auto& e : log)
    if (e.kind == Event::wait) waited.insert(e.index);
  if (waited.size() != buckets.size())
    return "finish() did not wait for every bucket: the optimizer step would read gradients still being "
           "averaged";
  return "";
}

class StepCheck {
 public:
  StepCheck(Stepper& st, Strategy strategy) : st_(st), strategy_(strategy) {}

  // After the step's averaging, before its update.
  void gradient(const BucketScheduler& scheduler) {
    ringlab::Communicator& comm = st_.comm;
    const int n = comm.size();
    // The same local gradient again (same weights, same examples: bit-identical), averaged
    // lesson 06's way, all at once: every strategy must give this gradient.
    reference_.resize(st_.grad.size());
    st_.mlp.loss_and_gradient(st_.params.data(), st_.train_set, st_.first, st_.part.count, reference_.data());
    st_.mlp.take_loss_sum();  // (not the epoch's loss)
    lesson06::average_gradients(comm, ringlab::View<float>(reference_));
    const double diff = comm.max(lessons::relative_error(st_.grad, reference_));
    if (diff > 1e-6 && worst_difference_ <= 1e-6 && comm.rank() == 0)
      ringlab::log(ringlab::Level::error)
          << "step " << st_.step_index - 1 << ": " << strategy_name(strategy_) << "'s averaged gradient vs after's: "
          << ringlab::describe(ringlab::compare<float>(ringlab::View<const float>(reference_),
                                                       ringlab::View<const float>(st_.grad), n));
    worst_difference_ = std::max(worst_difference_, diff);
    if (strategy_ == Strategy::after || !schedule_error_.empty()) return;
    schedule_error_ = schedule_problem(scheduler, st_.mlp.tensors());
    if (!schedule_error_.empty() && comm.rank() == 0) {
      ringlab::log(ringlab::Level::error) << "step " << st_.step_index - 1 << ": schedule WRONG: " << schedule_error_;
      // The schedule check names the cause itself: say it as every lesson's diagnosis does.
      std::printf("diagnosis: the bucket schedule is wrong: %s\n", schedule_error_.c_str());
    }
  }

  // After the update.
  void replicas() {
    if (lessons::replicas_identical(st_.comm, st_.params, st_.velocity)) return;
    if (identical_)
      ringlab::print_once(st_.comm, "check: step " + std::to_string(st_.step_index - 1) + ": replicas differ WRONG\n");
    identical_ = false;
  }

  // The verdict and the exit code.
  int finish() {
    const bool ok = identical_ && worst_difference_ <= 1e-6 && schedule_error_.empty();
    ringlab::print_once(
        st_.comm, std::string("check: ") + strategy_name(strategy_) + " on " + std::to_string(st_.comm.size()) +
                      " ranks: averaged gradient vs after's, max rel. diff " + lessons::sci(worst_difference_) +
                      (worst_difference_ <= 1e-6 ? " (<= 1e-6 ok)" : " WRONG (> 1e-6)") + "; replicas " +
                      (identical_ ? "bit-identical after every step" : "DIFFER") + "; schedule " +
                      (schedule_error_.empty() ? "ok" : "WRONG") + (ok ? ". PASSED\n" : ". FAILED\n"));
    return ok ? 0 : 1;
  }

 private:
  Stepper& st_;
  Strategy strategy_;
  std::vector<float> reference_;
  double worst_difference_ = 0;
  bool identical_ = true;
  std::string schedule_error_;
};

}  // namespace lesson08
