// Lesson 08 — one training step, the three ways: my part of the global batch, the backward pass
// handing each tensor to the bucket scheduler the moment its gradient is final, wait for the
// averaging, SGD. The training loop (main.cpp) and the bench (bench.hpp) both step through this.
#pragma once
#include <vector>

#include "distributed_optimizer.hpp"  // lesson 06: my_part, sgd_momentum_update
#include "gradient_buckets.hpp"
#include "ringlab/comm/averaging.hpp"
#include "ringlab/ml/fashion_mnist.hpp"
#include "ringlab/ml/mlp.hpp"
#include "ringlab/ringlab.hpp"
#include "shared/training.hpp"

namespace lesson08 {

enum class Strategy { after, per_layer, bucket };
inline const char* strategy_name(Strategy s) {
  return s == Strategy::after ? "after" : s == Strategy::per_layer ? "per-layer" : "bucket";
}

struct Stepper {
  ringlab::Communicator& comm;
  ringlab::Mlp& mlp;
  ringlab::Averaging& averaging;  // it also holds the gradient
  const ringlab::Dataset& train;
  int batch;  // global
  float lr, momentum;
  double bucket_mb;
  std::vector<float> params, velocity;
  lesson06::Part part = lesson06::my_part(batch, comm.rank(), comm.size());
  ringlab::View<float> grad = averaging.gradient();
  int train_set = mlp.upload_examples(train.images.data(), train.labels.data(), train.count);
  int first = 0;               // the first example (in the epoch's order) of my part of the last step
  double exposed_seconds = 0;  // the training thread waiting for communication
  int step_index = 0;

  // The order this epoch visits the training set.
  void begin_epoch(const std::vector<int>& order) { mlp.set_order(train_set, order); }

  // The size plan_buckets is given: per-layer 0 (one bucket per tensor); otherwise --bucket-mb.
  std::size_t bucket_bytes(Strategy s) const {
    return s == Strategy::per_layer ? 0 : static_cast<std::size_t>(bucket_mb * 1e6);
  }
  // per-layer: one bucket per tensor; bucket: buckets of --bucket-mb; after: planned, never started.
  BucketScheduler scheduler(Strategy s) {
    return BucketScheduler(averaging, plan_buckets(mlp.tensors(), bucket_bytes(s)),
                           static_cast<int>(mlp.tensors().size()));
  }

  // Batch b of the epoch's order: my part's gradient, averaged as `s` says. Returns my part's loss.
  float step(Strategy s, BucketScheduler& sched, int b) {
    first = b * batch + part.offset;
    averaging.new_step();
    sched.new_step();
    auto ready = [&](int t) {
      if (s == Strategy::after) return;
      sched.gradient_ready(t);
      averaging.between_layers();  // handover, or shared: the allreduces advance here
    };
    mlp.loss_and_gradient(params.data(), train_set, first, part.count, grad.data(), ready);
    const float loss = static_cast<float>(mlp.take_loss_sum());
    ringlab::trace::metric("loss", loss, step_index);
    const double t = lessons::seconds_now();
    if (s == Strategy::after) {
      averaging.average_now();  // lesson 06: all at once, now
    } else {
      sched.finish();
      // MPI_THREAD_SERIALIZED: this thread calls MPI next, so the progress thread must be done.
      // A no-op when finish() waited for every bucket (the --check says if it did not).
      averaging.wait_all();
    }
    exposed_seconds += lessons::seconds_now() - t;
    ++step_index;
    return loss;
  }

  void update() {
    lesson06::sgd_momentum_update(ringlab::View<float>(params), ringlab::View<const float>(grad),
                                  ringlab::View<float>(velocity), lr, momentum);
  }
};

}  // namespace lesson08
