// The training loop's plumbing, shared by lessons 06, 07 and 08: which examples each step
// visits, scoring the test set across the ranks, and the two --check measures (gradient
// difference, replicas bit-identical).
#pragma once
#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "ringlab/ml/mlp.hpp"  // hash_floats
#include "ringlab/ml/model.hpp"
#include "ringlab/ringlab.hpp"
#include "shared/format.hpp"

namespace lessons {

// Wall-clock seconds, for the samples/s the lessons print (06 and 08).
inline double seconds_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The start of an epoch's line, the same in lessons 06 and 08: every worker's mean loss over the
// epoch, gathered to rank 0 in rank order ("epoch 3/10  loss r0 0.4123 r1 0.4098").
inline std::string epoch_losses_line(ringlab::Communicator& comm, int epoch, int epochs, double mean_loss) {
  const auto losses = comm.gather_strings(format("%.4f", mean_loss));
  std::string line = "epoch " + std::to_string(epoch) + "/" + std::to_string(epochs) + "  loss";
  for (int r = 0; r < static_cast<int>(losses.size()); ++r) line += " r" + std::to_string(r) + " " + losses[r];
  return line;
}

// A difference as the --check lines print it: 2 significant digits, scientific.
inline std::string sci(double v) { return format("%.2e", v); }
using ringlab::Chunk;
using ringlab::Communicator;
using ringlab::View;

// The order in which epoch `epoch` visits the training set: a shuffle every rank computes the
// same way from (seed, epoch), so no indices need to be sent, and a resumed run sees the same.
inline std::vector<int> epoch_order(int count, std::uint64_t seed, long long epoch) {
  std::vector<int> order(static_cast<std::size_t>(count));
  std::iota(order.begin(), order.end(), 0);
  std::mt19937_64 gen(seed * 1000003ull + static_cast<std::uint64_t>(epoch));
  std::shuffle(order.begin(), order.end(), gen);
  return order;
}

// Test accuracy of the whole test set (`test_set`, `test_count` examples, uploaded to `model`):
// each rank scores its own slice, the counts are summed.
inline double global_accuracy(Communicator& comm, ringlab::Model& model, const float* params, int test_set,
                              int test_count) {
  const Chunk mine = ringlab::chunk_of(static_cast<std::size_t>(test_count), comm.size(), comm.rank());
  const long long correct =
      model.count_correct(params, test_set, static_cast<int>(mine.offset), static_cast<int>(mine.count));
  return static_cast<double>(comm.sum(correct)) / test_count;
}

// --check: the largest difference between `actual` and the reference `expected`, relative to the
// reference's largest element (float sums in another order differ in the last bits); a NaN
// counts as infinitely far. Any two indexable sequences of numbers (vectors, Views).
template <class A, class E> double relative_error(const A& actual, const E& expected) {
  double max_diff = 0, max_abs = 0;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const double d = std::fabs(double(actual[i]) - double(expected[i]));
    max_diff = std::isnan(d) ? INFINITY : std::max(max_diff, d);
    max_abs = std::max(max_abs, std::fabs(double(expected[i])));
  }
  return max_abs > 0 ? max_diff / max_abs : max_diff;
}

// A replica's parameters and momentum, hashed, in 16 hex digits: the same on two ranks when
// (almost surely only when) their replicas are bit-identical.
inline std::string state_hash(const std::vector<float>& params, const std::vector<float>& velocity) {
  return format("%016" PRIx64, ringlab::hash_floats(velocity.data(), velocity.size(),
                                                    ringlab::hash_floats(params.data(), params.size())));
}

// --check: every rank's state_hash; true on every rank when all agree.
inline bool replicas_identical(Communicator& comm, const std::vector<float>& params,
                               const std::vector<float>& velocity) {
  const auto all = comm.gather_strings(state_hash(params, velocity));
  bool same = true;
  for (const auto& other : all) same = same && other == all[0];
  return comm.all_ok(comm.rank() != 0 || same);
}

}  // namespace lessons
