// Lesson 09's --bench: the stages side by side. Per stage, the largest over the ranks of:
//   the bytes held for parameters, gradients and optimizer state (the sizes of the buffers the
//   stage allocated), their sum beside the formula, the working buffers (one layer's gradient,
//   and at stage 3 one layer's parameters), the bytes this rank sent in one step (counted from
//   the step's trace: every send), the step time and the samples per second; and lesson 05's
//   α-β model's prediction of the step's communication:
//     one reduce-scatter or allgather of c floats: (n-1) (α + β 4c/n)      (half a ring)
//     stage 0, 1: two halves of Ψ (an allreduce: stage 1 moves the same bytes)
//     stage 2:    two halves of each layer
//     stage 3:    two halves of each layer, plus one allgather per layer for backward (not layer 1)
// --format csv: the same rows as CSV (the byte columns the largest over the ranks).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "ringlab/ringlab.hpp"
#include "sharded_optimizer.hpp"
#include "shared/alpha_beta.hpp"
#include "shared/training.hpp"

namespace lesson09 {
using lessons::format;

// Model state per rank for fp32 SGD with momentum (4 bytes each for parameters, gradient and
// momentum), Ψ parameters on N ranks, as ZeRO's paper writes it.
inline double formula_bytes(int stage, double psi, int n) {
  const double per_rank[] = {12 * psi, 8 * psi + 4 * psi / n, 4 * psi + 8 * psi / n, 12 * psi / n};
  return per_rank[stage];
}
inline const char* formula_name(int stage) {
  const char* names[] = {"12Ψ", "8Ψ+4Ψ/N", "4Ψ+8Ψ/N", "12Ψ/N"};
  return names[stage];
}
inline std::string megabytes(double bytes) { return format("%.3f MB", bytes / 1e6); }

// The α-β model's time for one step's communication at `stage`, in microseconds.
inline double predicted_us(const lessons::AlphaBeta& ab, int stage, const Shards& shards, std::size_t psi,
                           int n) {
  if (n < 2) return 0;
  auto half = [&](std::size_t floats) { return (n - 1) * ab.predict_us(4.0 * floats / n); };
  if (stage <= 1) return 2 * half(psi);
  double us = 0;
  for (std::size_t l = 0; l < shards.layers.size(); ++l) {
    us += 2 * half(shards.layers[l].count);
    if (stage == 3 && l > 0) us += half(shards.layers[l].count);  // backward's gather (layer 1 has none)
  }
  return us;
}

inline int run_bench(Communicator& comm, const ringlab::CommonOptions& opt, ringlab::LayerwiseModel& model,
                     const std::vector<int>& stages, const std::vector<float>& initial, int set, int batch,
                     int steps_per_epoch, float lr, float momentum) {
  using lessons::seconds_now;
  const int n = comm.size(), part = batch / n;
  const std::size_t psi = model.parameter_count();
  lessons::AlphaBeta ab;
  if (n > 1) ab = lessons::fit_alpha_beta(lessons::ping_pong(comm, {64, 4096, 65536, 262144}));
  const bool csv = opt.format == ringlab::Format::csv;
  std::string out =
      csv ? "stage,ranks,param_bytes,grad_bytes,optimizer_bytes,model_state_bytes,formula_bytes,"
            "working_bytes,sent_bytes_per_step,predicted_comm_ms,step_ms,samples_per_s\n"
          : format(
                "bench: %d ranks, %zu parameters (Ψ), global batch %d, %d timed steps per stage, taking turns; "
                "α = %.1f us, β = %.2e us/byte; MB = 1e6 bytes, per rank (the largest)\n"
                "%-5s %12s %12s %12s %12s %-8s %12s %12s %12s %12s %9s %10s\n",
                n, psi, batch, opt.iters, ab.alpha_us, ab.beta_us_per_byte, "stage", "params", "grads",
                "optimizer", "model state", "formula", "(formula)", "working", "sent/step", "predicted",
                "step ms", "samples/s");
  auto step = [&](ShardedState& st, int i) {
    const int s = i % steps_per_epoch;
    st.step(set, s * batch + comm.rank() * part, part, lr, momentum);
  };
  // Every stage's state at once, warmed up and its bytes counted; then the timed steps taken in
  // turns, one step of each stage per turn (0, 1, 2, 3, 0, 1, ...), each from a barrier: a machine
  // whose speed drifts (other work, caches and pages warming up) slows every stage alike, not
  // whichever stage happened to run first.
  std::vector<std::unique_ptr<ShardedState>> states;
  std::vector<double> sent(stages.size(), 0), seconds(stages.size(), 0);
  for (std::size_t k = 0; k < stages.size(); ++k) {
    states.push_back(std::make_unique<ShardedState>(comm, model, stages[k], initial));
    for (int i = 0; i < opt.warmup; ++i) step(*states[k], i);
    ringlab::trace::Capture capture;  // one step more, its transfers recorded: the bytes this rank sent
    step(*states[k], opt.warmup);
    sent[k] = ringlab::trace::bytes_sent(capture.take());
  }
  for (int i = 0; i < opt.iters; ++i)
    for (std::size_t k = 0; k < stages.size(); ++k) {
      model.take_loss_sum();  // (on a GPU: waits for the steps so far)
      comm.barrier();
      const double t0 = seconds_now();
      step(*states[k], opt.warmup + 1 + i);
      model.take_loss_sum();
      seconds[k] += seconds_now() - t0;
    }
  for (std::size_t k = 0; k < stages.size(); ++k) {
    const int stage = stages[k];
    const ShardedState& st = *states[k];
    const double step_ms = comm.max(seconds[k]) / opt.iters * 1e3;
    const Held h = st.held();
    const double params = comm.max(double(h.params)), grads = comm.max(double(h.grads)),
                 optimizer = comm.max(double(h.optimizer)), state = comm.max(double(h.model_state())),
                 working = comm.max(double(h.working)), sent_max = comm.max(sent[k]);
    const double formula = formula_bytes(stage, double(psi), n);
    const double predicted_ms = predicted_us(ab, stage, st.shards(), psi, n) / 1e3;
    const double samples = batch / (step_ms / 1e3);
    out +=
        csv ? format("%d,%d,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.4f,%.4f,%.1f\n", stage, n, params, grads,
                     optimizer, state, formula, working, sent_max, predicted_ms, step_ms, samples)
            : format("%-5d %12s %12s %12s %12s %-8s %12s %12s %12s %9.3f ms %9.3f %10.0f\n", stage,
                     megabytes(params).c_str(), megabytes(grads).c_str(), megabytes(optimizer).c_str(),
                     megabytes(state).c_str(), formula_name(stage), megabytes(formula).c_str(),
                     megabytes(working).c_str(), megabytes(sent_max).c_str(), predicted_ms, step_ms, samples);
  }
  if (comm.rank() == 0) std::fputs(out.c_str(), stdout);
  return 0;
}

}  // namespace lesson09
