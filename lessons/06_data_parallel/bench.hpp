// Lesson 06's --bench: throughput only. --warmup untimed steps, then --iters timed ones; the
// slowest rank's time, and the share of it spent in the distributed step (the allreduce,
// waiting for the other ranks, the update).
#pragma once
#include <functional>

#include "ringlab/ringlab.hpp"
#include "shared/replica.hpp"
#include "shared/training.hpp"

namespace lesson06 {

// `step(s)`: one training step on batch s of the epoch's order; `sync_seconds`: the time the
// steps spent in the distributed step so far.
inline int run_bench(ringlab::Communicator& comm, const ringlab::CommonOptions& opt, lessons::Replica& replica,
                     int steps_per_epoch, int batch, const std::function<void(int)>& step, double& sync_seconds) {
  using lessons::seconds_now;
  for (int i = 0; i < opt.warmup; ++i) step(i % steps_per_epoch);
  replica.take_loss_sum();  // (on a GPU: waits for the warm-up steps to finish)
  comm.barrier();
  sync_seconds = 0;
  const double t0 = seconds_now();
  for (int i = 0; i < opt.iters; ++i) step((opt.warmup + i) % steps_per_epoch);
  replica.take_loss_sum();  // the timed steps have finished
  const double seconds = comm.max(seconds_now() - t0), sync = comm.max(sync_seconds);
  ringlab::print_once(
      comm, lessons::format("bench: %s, global batch %d, %d steps in %.2f s: %.0f samples/s, "
                            "%.0f%% of it in the distributed step\n",
                            ringlab::plural(comm.size(), "rank").c_str(), batch, opt.iters, seconds,
                            double(opt.iters) * batch / seconds, 100 * sync / seconds));
  return 0;
}

}  // namespace lesson06
