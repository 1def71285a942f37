// Lesson 08's --check of the bucket schedule: the averaged gradient can be right while the
// overlap is lost (a bucket packed in forward order, a wait right after each start). The
// scheduler logs what it did in one step; this reads the log and says what is wrong, if
// anything, in one line ("" when the schedule is right).
#pragma once
#include <set>
#include <string>
#include <vector>

#include "gradient_buckets.hpp"
#include "ringlab/ml/mlp.hpp"

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

}  // namespace lesson08
