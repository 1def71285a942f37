// Lesson 02's --bench: the pipeline's bubble, measured against the theory (P-1)/(M+P-1).
// For each M: `iters` timed steps. A step is timed from a barrier to a barrier, so every rank's
// step time is the whole pipeline's; busy = this rank's compute; idle = step - busy. The table
// shows the fastest of the timed steps (the same one on every rank): on a machine shared with
// other work it is the step least disturbed by it. On GPUs, busy is the GPU's time: a stage
// waits for its kernels before its compute counts as done (ringlab/ml/pipeline_stage.hpp).
#pragma once
#include <mpi.h>

#include <string>
#include <vector>

#include "model.hpp"
#include "model_parallel.hpp"
#include "ringlab/ringlab.hpp"
#include "shared/format.hpp"

namespace lesson02 {

inline void bench_bubble(ringlab::Communicator& comm, const Config& c, const ringlab::CommonOptions& opt,
                         const std::vector<int>& ms) {
  using ringlab::print_in_rank_order;
  using ringlab::print_once;
  const int P = comm.size(), k = c.layers_per_rank;
  const std::string on_gpus =  // several stages may share one GPU when there are fewer GPUs than ranks
      comm.where() == Where::device ? ", each stage on its rank's GPU, transport " +
                                          std::string(ringlab::transport_name(comm.transport()))
                                    : "";
  print_once(comm,
             lessons::format("GPipe: %d stages x %d layers of %dx%d, batch %d, fastest of %d timed steps "
                             "per M%s\n%5s %5s %10s %10s %10s %8s\n",
                             P, k, c.width, c.width, c.batch, opt.iters, on_gpus.c_str(), "M", "rank",
                             "step(ms)", "busy(ms)", "idle(ms)", "bubble"));
  std::vector<double> x, t;
  make_batch(c, 0, x, t);
  const auto inputs = to_buffer(x, comm.where()), targets = to_buffer(t, comm.where());
  for (int M : ms) {
    Stage s;
    s.layers = make_layers(c, comm.rank() * k, k, k * P, comm.where());
    double step_us = 1e300, busy_us = 0;
    for (int it = 0; it < opt.warmup + opt.iters; ++it) {
      s.busy_us = 0;
      comm.barrier();
      const double t0 = MPI_Wtime();
      lesson02::gpipe_step(comm, s, inputs.view(), targets.view(), c.batch, M);
      comm.barrier();
      const double step = comm.max((MPI_Wtime() - t0) * 1e6);  // the same number on every rank
      for (auto& l : s.layers) lesson02::sgd_update(l, c.lr);
      if (it >= opt.warmup && step < step_us) {
        step_us = step;
        busy_us = s.busy_us;
      }
    }
    const double bubble = 1.0 - busy_us / step_us;
    print_in_rank_order(comm,
                        lessons::format("%5d %5d %10.2f %10.2f %10.2f %8.3f", M, comm.rank(), step_us / 1e3,
                                        busy_us / 1e3, (step_us - busy_us) / 1e3, bubble));
    const double mean = comm.sum(bubble) / P;
    const double theory = double(P - 1) / (M + P - 1);
    print_once(comm, lessons::format("M=%d bubble measured %.3f theory (P-1)/(M+P-1) = %.3f diff %+.3f\n", M,
                                     mean, theory, mean - theory));
  }
}

}  // namespace lesson02
