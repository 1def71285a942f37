// Lesson 02's --check of the MLP: the pipelined training (train_pipelined in main.cpp, on the
// CPU or on the ranks' GPUs) against the same model trained in one process, the whole batch at
// once, always on the CPU: the reference. The demo prints the same comparison, with the losses
// step by step. (The slide's chain sum checks itself against the serial sum: chain_sum in main.cpp.)
#pragma once
#include <cmath>
#include <vector>

#include "model.hpp"
#include "model_parallel.hpp"
#include "ringlab/ringlab.hpp"
#include "shared/format.hpp"

namespace lesson02 {

// The whole model as one stage, the whole batch at once: what one big worker would do.
inline TrainResult train_single_process(const Config& c, int ranks) {
  const int total = c.layers_per_rank * ranks;
  Stage s;
  s.layers = make_layers(c, 0, total, total, Where::host);
  lesson02::prepare(s, 1, c.batch);
  TrainResult out;
  std::vector<double> x, t;
  for (int step = 0; step < c.steps; ++step) {
    make_batch(c, step, x, t);
    lesson02::copy_values(s.act[0][0].view(), View<const double>(x));
    lesson02::stage_compute_forward(s, 0);
    const double loss =
        lesson02::mse_loss(s.act[0].back().view(), View<const double>(t), c.batch, s.grad_out[0].view());
    lesson02::stage_compute_backward(s, 0);
    for (auto& l : s.layers) lesson02::sgd_update(l, c.lr);
    out.losses.push_back(loss);
  }
  out.layers = std::move(s.layers);
  return out;
}

inline double rel_diff(double a, double b) {
  return std::fabs(a - b) / std::fmax(1e-30, std::fmax(std::fabs(a), std::fabs(b)));
}

// Losses per step and this rank's weights after training (`pipe`, trained with `microbatches`),
// against the one-process model.
// Agreement within 1e-5 relative (in practice ~1e-15: only the order of additions differs).
inline long long check_mlp(ringlab::Communicator& comm, const Config& c, const TrainResult& pipe,
                           int microbatches, bool print_losses) {
  using ringlab::print_once;
  const TrainResult ref = train_single_process(c, comm.size());
  const double tol = 1e-5;
  long long wrong = 0;
  double worst = 0;
  for (int step = 0; step < c.steps; ++step) {
    const double d = rel_diff(pipe.losses[step], ref.losses[step]);
    worst = std::fmax(worst, d);
    if (!(d <= tol)) ++wrong;  // written so that a NaN loss counts as wrong
    if (print_losses)
      print_once(comm, lessons::format("  step %d  loss pipelined %.12f  one process %.12f  rel diff %.1e\n",
                                       step, pipe.losses[step], ref.losses[step], d));
  }
  if (comm.rank() != 0) wrong = 0;  // the losses are the same on every rank: count them once
  const int first = comm.rank() * c.layers_per_rank;
  for (int k = 0; k < c.layers_per_rank; ++k) {
    const std::vector<double> a = to_host(pipe.layers[k].w), b = to_host(ref.layers[first + k].w);
    for (std::size_t i = 0; i < a.size(); ++i) {
      const double d = rel_diff(a[i], b[i]);
      worst = std::fmax(worst, d);
      if (!(std::fabs(a[i] - b[i]) <= tol * std::fmax(1.0, std::fabs(b[i])))) {  // NaN: wrong
        if (wrong < 3)
          ringlab::log(ringlab::Level::error)
              << "layer " << first + k << " w[" << i << "] expected " << b[i] << " got " << a[i];
        ++wrong;
      }
    }
  }
  wrong = comm.sum(wrong);
  worst = comm.max(worst);
  print_once(
      comm,
      lessons::format(
          "mlp  M=%-3d %d steps  losses+weights vs one process%s: max rel diff %.1e  #wrong %lld\n",
          microbatches, c.steps,
          comm.where() == Where::device ? " (pipeline on GPUs, one process on the CPU)" : "", worst, wrong));
  return wrong;
}

}  // namespace lesson02
