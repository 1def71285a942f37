// Lesson 03 — broadcast of the initial state: linear, binomial tree, pipelined chain, MPI_Bcast.
//   ./ringlab run 03 -np 4                     drift: replicas without / with a state broadcast
//   ./ringlab run 03 -np 4 -- --check          every broadcast against MPI_Bcast, several roots
//   ./ringlab run 03 -np 4 -- --bench          nccl-tests style table, busbw = algbw
//   ./ringlab run 03 -np 4 -- --bench --segment 4194304   try another chain segment size (bytes)
//
// The broadcasts are in broadcast.hpp (solutions/03_broadcast), the state broadcast in
// broadcast_state.hpp beside this file. Gradients are averaged with lesson 05's ring allreduce.
// This file is the drift demo; beside it, check.hpp (--check: every broadcast against MPI_Bcast)
// and bench.hpp (--bench: the table).
#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "bench.hpp"
#include "broadcast.hpp"
#include "broadcast_state.hpp"
#include "check.hpp"
#include "ring_allreduce.hpp"  // lesson 05 (solutions/05_ring_allreduce)
#include "ringlab/ringlab.hpp"
#include "shared/format.hpp"

using namespace ringlab;

namespace {

// --- the drift demo -----------------------------------------------------------------------
// A linear model y = w.x + b trained data-parallel with momentum SGD: each rank has its own
// data shard, gradients are averaged with the ring allreduce, every rank applies the average.
constexpr int kFeatures = 16;
constexpr int kRowsPerRank = 32;
constexpr int kStepsPerEpoch = 10;

// rank 0 "resumed from a checkpoint": trained weights, momentum, step 100, epoch 2.5 in the
// schedule. The other ranks start fresh, each from its own random seed.
lesson03::TrainState initial_state(int rank) {
  lesson03::TrainState s;
  std::mt19937_64 gen(rank);
  std::normal_distribution<float> n(0.0f, 1.0f);
  // Created in a different order on different ranks on purpose: broadcast_state walks by name.
  std::vector<std::string> names{"model.weight", "model.bias", "optim.momentum.model.weight",
                                 "optim.momentum.model.bias"};
  if (rank % 2) std::reverse(names.begin(), names.end());
  for (const auto& name : names) {
    std::vector<float> t(name.ends_with("weight") ? kFeatures : 1);
    const bool momentum = name.starts_with("optim.");
    for (auto& x : t) x = momentum ? (rank == 0 ? 0.1f * n(gen) : 0.0f) : n(gen);
    s.tensors[name] = t;
  }
  if (rank == 0) {
    s.step = 100;
    s.lr_position = 2.5;
  }
  return s;
}

// Warm-up over the first 20 steps, then halve the rate every epoch.
double learning_rate(const lesson03::TrainState& s, double base) {
  return base * std::min(1.0, (s.step + 1) / 20.0) * std::pow(0.5, std::floor(s.lr_position));
}

// One data-parallel step: local gradient of 0.5 * mean (w.x + b - y)^2 on this rank's shard,
// averaged over ranks, then momentum SGD with this rank's own step counter and schedule.
void train_step(Communicator& comm, lesson03::TrainState& s, double base_lr) {
  std::mt19937_64 gen(1000 + comm.rank());  // this rank's data shard (the same every step)
  std::normal_distribution<float> n(0.0f, 1.0f);
  auto& w = s.tensors["model.weight"];
  auto& b = s.tensors["model.bias"];
  std::vector<float> grad(kFeatures + 1, 0.0f);
  for (int row = 0; row < kRowsPerRank; ++row) {
    float x[kFeatures], y = 0.5f, pred = b[0];
    for (int i = 0; i < kFeatures; ++i) {
      x[i] = n(gen);
      y += 0.25f * (i % 4) * x[i];
      pred += w[i] * x[i];
    }
    const float err = (pred - y) / kRowsPerRank;
    for (int i = 0; i < kFeatures; ++i) grad[i] += err * x[i];
    grad[kFeatures] += err;
  }
  lesson05::ring_allreduce<float>(comm, View<float>(grad), View<float>(grad));
  for (auto& g : grad) g /= static_cast<float>(comm.size());

  const float lr = static_cast<float>(learning_rate(s, base_lr));
  auto& mw = s.tensors["optim.momentum.model.weight"];
  auto& mb = s.tensors["optim.momentum.model.bias"];
  for (int i = 0; i < kFeatures; ++i) {
    mw[i] = 0.9f * mw[i] + grad[i];
    w[i] -= lr * mw[i];
  }
  mb[0] = 0.9f * mb[0] + grad[kFeatures];
  b[0] -= lr * mb[0];
  s.step += 1;
  s.lr_position += 1.0 / kStepsPerEpoch;
}

// The largest |x - x on rank 0| over the tensors whose name starts with `prefix` ("" for all
// of them, and then the step counter and schedule position too), over every rank. Rank 0's
// values reach the others by a (traced) tree broadcast.
double max_difference(Communicator& comm, const lesson03::TrainState& s, const std::string& prefix) {
  std::vector<double> mine;
  for (const auto& [name, t] : s.tensors)
    if (name.starts_with(prefix)) mine.insert(mine.end(), t.begin(), t.end());
  if (prefix.empty()) {
    mine.push_back(static_cast<double>(s.step));
    mine.push_back(s.lr_position);
  }
  std::vector<double> rank0 = mine;
  lesson03::tree_broadcast(comm, View<double>(rank0), 0);
  double d = 0;
  for (std::size_t i = 0; i < mine.size(); ++i) d = std::fmax(d, std::fabs(mine[i] - rank0[i]));
  return comm.max(d);
}

// Prints the drift table; returns the number of steps where the claims fail (with broadcast
// the difference must be exactly 0, without it must not).
long long drift_demo(Communicator& comm, int steps, double lr) {
  print_once(
      comm,
      "rank 0 resumed from a checkpoint (step 100, epoch 2.5, momentum != 0); the other ranks start fresh,\n"
      "each from its own seed. Every rank applies the same averaged gradient (ring allreduce) each step.\n"
      "max |value - value on rank 0| over all ranks:\n");
  const char* row = "%5s %16s %16s %16s %16s\n";
  print_once(comm, lessons::format(row, "", "without broadcast", "", "with broadcast", "") +
                       lessons::format(row, "step", "parameters", "lr max-min", "parameters", "whole state"));
  lesson03::TrainState apart = initial_state(comm.rank());
  lesson03::TrainState same = initial_state(comm.rank());
  lesson03::broadcast_state(comm, same, 0);
  long long bad = 0;
  for (int step = 0; step <= steps; ++step) {
    if (step > 0) {
      train_step(comm, apart, lr);
      train_step(comm, same, lr);
    }
    const double d_apart = max_difference(comm, apart, "model.");
    const double d_same = max_difference(comm, same, "model."), d_state = max_difference(comm, same, "");
    const double my_lr = learning_rate(apart, lr), d_lr = comm.max(my_lr) - (-comm.max(-my_lr));
    trace::metric("param_diff_without_broadcast", d_apart, step);
    trace::metric("param_diff_with_broadcast", d_same, step);
    if (d_same != 0.0 || d_state != 0.0 || (comm.size() > 1 && d_apart == 0.0)) ++bad;
    print_once(comm,
               lessons::format("%5d %16.6g %16.6g %16.6g %16.6g\n", step, d_apart, d_lr, d_same, d_state));
  }
  print_once(comm, std::string("with broadcast: bit-identical on every rank at every step: ") +
                       (bad ? "NO" : "yes") + "\n");
  return bad;
}

}  // namespace

int main(int argc, char** argv) {
  Runtime rt(argc, argv);
  CLI::App app{
      "Lesson 03 — broadcast (linear, binomial tree, pipelined chain vs MPI_Bcast) and why the initial state "
      "must be broadcast"};
  CommonOptions opt;
  opt.count = 1 << 20;
  opt.runs_on_gpu = true;
  opt.runs_on_sim = true;  // --device sim: the same on the simulated GPU (sim_device.hpp)
  add_common_options(app, opt);
  long long segment = 1 << 20;  // tuned on the shared 2-core machine: see docs/lessons02-04.md
  int steps = 10;
  double lr = 0.05;
  add_number(app, "--segment", segment, "Chain broadcast segment size in bytes", 1, 1 << 30);
  add_number(app, "--steps", steps, "Training steps in the drift demo", 0, 1000000);
  add_number(app, "--lr", lr, "Base learning rate of the drift demo", 0, 100);
  if (auto exit_code = rt.start(app, opt, argc, argv, 2)) return *exit_code;
  auto& comm = rt.comm();
  const bool count_given = app.count("--count") > 0;
  const std::size_t seg = static_cast<std::size_t>(segment);

  long long wrong = 0;
  dispatch(opt.type, [&](auto zero) {
    using T = decltype(zero);
    if (opt.check) wrong += lesson03::check_broadcasts<T>(comm, seg, opt, count_given);  // check.hpp
    if (opt.bench) wrong += lesson03::bench_broadcasts<T>(comm, seg, opt, count_given);  // bench.hpp
  });
  if (opt.check || !opt.bench) wrong += drift_demo(comm, steps, lr);
  if (wrong) print_once(comm, "FAILED: " + std::to_string(wrong) + " wrong\n");
  return wrong || harness::departed_from_schedule() ? 1 : 0;  // (a departure was said as it happened)
}
