// Lesson 08 — gradient bucketing: average the gradients WHILE the backward pass still runs.
//
// Lesson 06 waits for the whole backward pass, then averages every gradient in one allreduce:
// the communication adds to the step time. But the backward pass finishes the LAST layer's
// gradients first, and nothing changes them afterwards. PyTorch DDP and Horovod start
// averaging those at once, while the backward pass computes the layers below:
//
//   backward:  [ layer 4 ][ layer 3     ][ layer 2        ][ layer 1          ]
//   buckets:             ^ b0 full       ^ b1 full         ^ b2 full          ^ b3 (partial)
//   allreduces:          [ allreduce b0 ][ allreduce b1 ]  [ allreduce b2   ] [ b3 ]
//   step:                                                                     wait all, SGD
//
// Gradients are packed into buckets of about --bucket-mb in BACKWARD order (the order they
// become ready): one allreduce per tensor would pay each message's fixed cost (α) hundreds of
// times for tiny biases; one allreduce for everything (lesson 06) cannot start until the end.
// Buckets are the middle ground: few messages, and most of them hidden behind computation.
//
// The gradient is one flat array, layer after layer ([ W1 | b1 | W2 | b2 | ... ], mlp.hpp),
// so the tensors that become ready one after the other (b4, W4, b3, W3, ...) lie next to each
// other in memory: a bucket is a slice of that array, and needs no copying.
//
// Starting a bucket's allreduce returns at once; how the averaging then moves while backward
// computes is ringlab/comm/averaging.hpp's business (--allreduce): the ring on a progress thread
// (ringlab/progress_thread.hpp; an MPI transfer only moves while a thread is inside MPI), or
// the ranks of one host averaging in shared memory whenever they pass between two layers.
#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "ringlab/comm/averaging.hpp"  // how a slice of the gradient gets averaged: start, wait
#include "ringlab/ml/mlp.hpp"
#include "ringlab/ringlab.hpp"

namespace lesson08 {
using ringlab::Averaging;
using ringlab::Mlp;
using ringlab::View;

// A slice [offset, offset + count) of the flat gradient and the tensors that fill it.
struct Bucket {
  std::size_t offset = 0, count = 0;
  std::vector<int> tensors;  // indices into Mlp::tensors(), in the order they become ready
};

// ---- packing: which tensors share a bucket ----------------------------------------------
// Walk the tensors in the order the backward pass makes them ready: the LAST tensor first.
// Add each to the open bucket; once the bucket holds at least `bucket_bytes`, close it and open
// a new one. bucket_bytes = 0 gives one bucket per tensor (the per-layer strategy).
inline std::vector<Bucket> plan_buckets(const std::vector<Mlp::Tensor>& tensors, std::size_t bucket_bytes) {
  std::vector<Bucket> buckets;
  // ==== BEGIN EXERCISE: plan ====
  Bucket open;
  for (int t = static_cast<int>(tensors.size()) - 1; t >= 0; --t) {
    // Backward order walks the array from its end: each tensor lies just BEFORE the bucket.
    open.offset = tensors[t].offset;
    open.count += tensors[t].count;
    open.tensors.push_back(t);
    if (open.count * sizeof(float) >= bucket_bytes) {
      buckets.push_back(open);
      open = Bucket{};
    }
  }
  if (!open.tensors.empty()) buckets.push_back(open);  // the last bucket, not full: still averaged
  // ==== END EXERCISE ====
  return buckets;
}

// ---- scheduling: start each bucket's allreduce the moment it is full ----------------------
// One per training run. The backward pass calls gradient_ready(t) as each tensor's gradient
// becomes final; the step calls finish() before the optimizer touches the gradient.
class BucketScheduler {
 public:
  // What happened, in order, for the lesson's --check of the schedule (did each bucket start
  // as soon as it was full, was anything waited for during the backward pass).
  struct Event {
    enum Kind { ready, start, wait } kind;
    int index;         // tensor (ready) or bucket (start, wait)
    int missing = -1;  // start: the bucket's count of tensors still missing as it started (the check reads it)
  };

  BucketScheduler(Averaging& averaging, std::vector<Bucket> buckets, int tensor_count)
      : averaging_(averaging),
        grad_(averaging.gradient()),
        buckets_(std::move(buckets)),
        bucket_of_(static_cast<std::size_t>(tensor_count), -1),
        missing_(buckets_.size()),
        ticket_(buckets_.size(), -1) {
    for (std::size_t b = 0; b < buckets_.size(); ++b)
      for (int t : buckets_[b].tensors)  // (an index no tensor has is skipped: the check names it)
        if (t >= 0 && t < tensor_count) bucket_of_[static_cast<std::size_t>(t)] = static_cast<int>(b);
    new_step();
  }

  // Tensor t's gradient is final (called from inside the backward pass).
  void gradient_ready(int t) {
    log_.push_back({Event::ready, t});
    const int b = bucket_of_[static_cast<std::size_t>(t)];
    if (b < 0) return;  // in no bucket: never averaged (the --check will say so)
    // ==== BEGIN EXERCISE: ready ====
    // One tensor fewer to wait for in bucket b; when none is left, the bucket is full.
    if (--missing_[static_cast<std::size_t>(b)] == 0) start_allreduce(b);
    // ==== END EXERCISE ====
  }

  // Before the optimizer step: every bucket's allreduce has finished, the gradient is averaged.
  void finish() {
    // ==== BEGIN EXERCISE: finish ====
    for (int b = 0; b < static_cast<int>(buckets_.size()); ++b) wait_for(b);
    // ==== END EXERCISE ====
  }

  const std::vector<Bucket>& buckets() const { return buckets_; }
  const std::vector<Event>& log() const { return log_; }
  // Bucket b's count of tensors not yet ready in this step (the check reads how it ended).
  int missing(int b) const { return missing_[static_cast<std::size_t>(b)]; }
  // Call at the start of every step: all buckets empty again, the log cleared.
  void new_step() {
    for (std::size_t b = 0; b < buckets_.size(); ++b)
      missing_[b] = static_cast<int>(buckets_[b].tensors.size());
    std::fill(ticket_.begin(), ticket_.end(), -1);
    log_.clear();
  }

 private:
  // Starts averaging bucket b's slice of the gradient and returns at once: the backward pass
  // goes on while it runs.
  void start_allreduce(int b) {
    must_be_a_bucket(b, "start_allreduce");
    log_.push_back({Event::start, b, missing_[static_cast<std::size_t>(b)]});
    const Bucket& bucket = buckets_[static_cast<std::size_t>(b)];
    ticket_[static_cast<std::size_t>(b)] = averaging_.start(grad_.sub(bucket.offset, bucket.count));
  }
  // Blocks until bucket b's allreduce has finished (a bucket never started: nothing to wait for).
  void wait_for(int b) {
    must_be_a_bucket(b, "wait_for");
    log_.push_back({Event::wait, b});
    if (ticket_[static_cast<std::size_t>(b)] >= 0) averaging_.wait(ticket_[static_cast<std::size_t>(b)]);
  }

  // A bucket number the plan does not have (a tensor's number, or a bucket's ticket, say) is
  // refused with the numbers, where indexing with it would crash far from the call, or not at all.
  void must_be_a_bucket(int b, const char* call) const {
    if (b >= 0 && b < static_cast<int>(buckets_.size())) return;
    std::string whose;  // a ticket the averaging gave in this step: say whose
    for (std::size_t k = 0; k < ticket_.size() && whose.empty(); ++k)
      if (ticket_[k] == b) whose = " (" + std::to_string(b) + " is bucket " + std::to_string(k) + "'s ticket, ticket_[" +
                                   std::to_string(k) + "]: " + call + " takes the bucket's number)";
    throw std::out_of_range(std::string(call) + "(" + std::to_string(b) + "): no bucket " + std::to_string(b) +
                            " — there are " + std::to_string(buckets_.size()) + ", numbered 0 to " +
                            std::to_string(static_cast<int>(buckets_.size()) - 1) + whose);
  }

  Averaging& averaging_;
  View<float> grad_;
  std::vector<Bucket> buckets_;
  std::vector<int> bucket_of_;  // tensor -> its bucket
  std::vector<int> missing_;    // per bucket: tensors not yet ready in this step
  std::vector<int> ticket_;     // per bucket: its averaging's ticket, -1 before it starts
  std::vector<Event> log_;
};

}  // namespace lesson08
