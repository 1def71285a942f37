// Lesson 02 — model parallelism: each rank holds a part of the model, data flows rank to rank.
//
// 1. The slide. y = w0*x0 + w1*x1 + w2*x2 on three ranks, one term each:
//
//      rank 0            rank 1                 rank 2
//      y0 = w0*x0  --->  y1 = y0 + w1*x1  --->  y = y1 + w2*x2
//
//    No rank ever holds all the weights. The price: rank 1 waits for rank 0, rank 2 for rank 1.
//
// 2. An MLP split by layers. Rank r holds layers [r*k, (r+1)*k). Activations flow forward
//    r -> r+1, gradients flow back r+1 -> r:
//
//      forward    x -> [rank 0: L0 L1] -a-> [rank 1: L2 L3] -a-> [rank 2: L4 L5] -> loss
//      backward        [rank 0: L0 L1] <-g- [rank 1: L2 L3] <-g- [rank 2: L4 L5] <- dloss
//
// 3. Pipelining (GPipe). With one batch, only one rank works at a time. Cut the batch into M
//    microbatches: rank 0 starts microbatch 1 while rank 1 works on microbatch 0. P = 3, M = 4
//    (F = forward of microbatch n, B = backward, '.' = idle):
//
//      rank 0   F0 F1 F2 F3 .  .  .  .  B3 B2 B1 B0
//      rank 1   .  F0 F1 F2 F3 .  .  B3 B2 B1 B0 .
//      rank 2   .  .  F0 F1 F2 F3 B3 B2 B1 B0 .  .
//
//    Every rank is idle for (P-1) forward and (P-1) backward slots out of (M+P-1) of each, so
//    the bubble (idle fraction) is (P-1)/(M+P-1): more microbatches, smaller bubble.
#pragma once
#include <mpi.h>

#include <vector>

#include "ringlab/ml/pipeline_stage.hpp"
#include "ringlab/ringlab.hpp"

namespace lesson02 {
using namespace ringlab::pipeline;  // a stage's layers and their arithmetic
using ringlab::View;

template <class T> struct ChainResult {
  T received;  // the partial sum that came from rank - 1 (0 on rank 0)
  T y;         // received + this rank's terms; on the last rank, the whole sum
};

// The slide, for any number of ranks and terms per rank: this rank's terms are w[i]*x[i].
// The partial sum travels rank 0 -> 1 -> ... -> last, which ends up holding y.
template <class T>
ChainResult<T> chain_forward(ringlab::Communicator& comm, View<const T> w, View<const T> x) {
  const int r = comm.rank(), last = comm.size() - 1;
  ringlab::trace::Collective tc("chain_sum", x.data(), x.size());
  tc.at("forward", r);
  T y = 0;
  // ==== BEGIN EXERCISE: receive ====
  // TODO(exercise): goal: when the loop below adds this rank's terms, y already holds the sum of
  // the terms of every rank before this one (the slide at the top); nothing comes before rank 0,
  // so its y stays the 0 it is now. Every rank but 0 takes exactly one value from the chain, from
  // the rank just before it; rank 0 takes none (a receive nobody answers hangs).
  // In scope: comm, r, y. Stuck? ./ringlab hint 02
  // ==== END EXERCISE ====
  const T received = y;
  for (std::size_t i = 0; i < x.size(); ++i) y += w[i] * x[i];
  // ==== BEGIN EXERCISE: send ====
  // TODO(exercise): goal: the next rank starts from this rank's y, which now includes its own
  // terms, so that the last rank ends with the whole sum. Every rank but the last hands one value
  // to the rank just after it, met by exactly one receive of the hole above; the last rank keeps
  // y (it is the result). In scope: comm, r, last, y.
  (void)last;  // TODO(exercise): delete this line once you use last
  // ==== END EXERCISE ====
  return {received, y};
}

// Times a stretch of computation (for the bubble) and records it in the trace.
struct BusyScope {
  BusyScope(Stage& s, const char* name, int m) : stage(s), trace(name, m), t0(MPI_Wtime()) {}
  ~BusyScope() { stage.busy_us += (MPI_Wtime() - t0) * 1e6; }
  Stage& stage;
  ringlab::trace::Compute trace;
  double t0;
};

// Forward of microbatch m on this rank's stage. Rank 0 reads the input rows; every other rank
// receives its input, the previous stage's output, from rank - 1. Every rank but the last
// sends its output on to rank + 1; the last computes the loss and the gradient that starts the
// backward pass. Returns the loss of microbatch m on the last rank, 0 elsewhere.
// Sends are non-blocking (added to `sends`, finished at the end of the step): a stage starts
// on its next microbatch at once instead of waiting for rank + 1 to take this one.
// The buffers are where the stage computes (host memory, or this rank's GPU with --device
// cuda); the communicator moves them either way, labelled with the microbatch for the trace.
inline double stage_forward(ringlab::Communicator& comm, Stage& s, int m, View<const double> input,
                            View<const double> target, int batch, std::vector<ringlab::Request>& sends) {
  const int r = comm.rank(), last = comm.size() - 1;
  const View<double> in = s.act[m].front().view(), out = s.act[m].back().view();
  if (r == 0) copy_values(in, input);
  else comm.recv(View<double>(in.data(), in.size(), in.where(), m), r - 1, m);
  double loss = 0;
  {
    BusyScope busy(s, "forward", m);
    stage_compute_forward(s, m);
    if (r == last) loss = mse_loss(out, target, batch, s.grad_out[m].view());
  }
  if (r < last)
    sends.push_back(comm.isend(View<const double>(out.data(), out.size(), out.where(), m), r + 1, m));
  return loss;
}

// Backward of microbatch m: the gradient of the stage's output comes from rank + 1 (the last
// rank has it from the loss), goes back through the stage's layers (adding to the weight
// gradients), and the gradient of the stage's input goes to rank - 1.
inline void stage_backward(ringlab::Communicator& comm, Stage& s, int m,
                           std::vector<ringlab::Request>& sends) {
  const int r = comm.rank(), last = comm.size() - 1;
  const View<double> gout = s.grad_out[m].view(), gin = s.grad_in[m].view();
  if (r < last) comm.recv(View<double>(gout.data(), gout.size(), gout.where(), m), r + 1, m);
  {
    BusyScope busy(s, "backward", m);
    stage_compute_backward(s, m);
  }
  if (r > 0)
    sends.push_back(comm.isend(View<const double>(gin.data(), gin.size(), gin.where(), m), r - 1, m));
}

// One training step's forward and backward passes in the GPipe schedule: every microbatch
// forward (0, 1, ..., M-1), then every microbatch backward (M-1, ..., 0). The weight gradients
// of all microbatches add up in the layers; the caller then takes one SGD step.
// `inputs` (rank 0) and `targets` (last rank) hold the whole batch, row-major, where the stage is.
// Returns the batch's loss on the last rank, 0 elsewhere.
inline double gpipe_step(ringlab::Communicator& comm, Stage& s, View<const double> inputs,
                         View<const double> targets, int batch, int microbatches) {
  const int rows = batch / microbatches;
  prepare(s, microbatches, rows);
  ringlab::trace::Collective tc("pipeline", inputs.data(), inputs.size());
  std::vector<ringlab::Request> sends;  // activations and gradients still on their way
  double loss = 0;
  for (int m = 0; m < microbatches; ++m) {
    tc.at("forward", m);
    const std::size_t in_rows = static_cast<std::size_t>(rows) * s.in_width();
    const std::size_t out_rows = static_cast<std::size_t>(rows) * s.out_width();
    loss += stage_forward(comm, s, m, inputs.sub(m * in_rows, in_rows), targets.sub(m * out_rows, out_rows),
                          batch, sends);
  }
  for (int m = microbatches - 1; m >= 0; --m) {
    tc.at("backward", m);
    stage_backward(comm, s, m, sends);
  }
  comm.wait_all(sends);
  return loss;
}

}  // namespace lesson02
