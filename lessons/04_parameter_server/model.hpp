// Lesson 04's model, the same for the three ways of training it (main.cpp) and for the training
// in one process they are checked against (check.hpp): S parameters p, loss
// 0.5 * mean_i a_i (p_i - t_i)^2, every worker's gradient a (p - t) plus noise of its own (a
// stand-in for a minibatch's). And what a training run leaves behind.
#pragma once
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <thread>
#include <string>
#include <vector>

namespace lesson04 {

// A fast, reproducible random number in [0, 1) for element i of stream `seed`.
inline float hash01(std::uint64_t seed, std::uint64_t i) {
  std::uint64_t z = seed * 0x9E3779B97F4A7C15ull + i + 0x632BE59BD9B4E019ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return static_cast<float>((z ^ (z >> 31)) >> 40) / static_cast<float>(1ull << 24);
}

struct Problem {
  std::size_t size = 0;
  std::vector<float> a, target;  // curvature in [0.1, 1], optimum
  // Where training starts, in [-0.5, 0.5), not 0: from 0, parameters reset to 0 every step plus a
  // gradient sum that is never reset walk the same path as the right step (both are -lr times the
  // gradients' running mean), and a check would pass them.
  std::vector<float> start;
  float noise = 0.5f;
  int straggler = -1;  // the worker that sleeps straggler_ms per gradient
  int straggler_ms = 0;

  explicit Problem(std::size_t n) : size(n), a(n), target(n), start(n) {
    for (std::size_t i = 0; i < n; ++i) {
      a[i] = 0.1f + 0.9f * hash01(1, i);
      target[i] = 2.0f * hash01(2, i) - 1.0f;
      start[i] = hash01(3, i) - 0.5f;
    }
  }
  // Worker `worker`'s gradient for its `k`-th step at `p`.
  void gradient(int worker, int k, const float* p, float* g) const {
    const std::uint64_t seed = 1000 + 7919ull * worker + 104729ull * k;
    for (std::size_t i = 0; i < size; ++i)
      g[i] = a[i] * (p[i] - target[i]) + noise * (2.0f * hash01(seed, i) - 1.0f);
    if (worker == straggler && straggler_ms > 0)
      std::this_thread::sleep_for(std::chrono::milliseconds(straggler_ms));
  }
  double loss(const float* p) const {
    double l = 0;
    for (std::size_t i = 0; i < size; ++i)
      l += 0.5 * a[i] * double(p[i] - target[i]) * double(p[i] - target[i]);
    return l / static_cast<double>(size);
  }
};

struct Run {
  std::vector<float> params;
  std::vector<double> losses;  // after each step (sync) or each round of N-1 updates (async)
  double seconds = 0;
  std::vector<std::vector<double>> after_step;  // the parameters after each step (sync, --check only)
  std::vector<double> server_sum;  // the server's `sum` after step 0 (sync, --check only)
  long long any_source = 0;        // receives from whichever rank was first (sync: must be 0)
  std::string departure;  // how its transfers depart from the schedule (sync, --check, rank 0; "": none)
};

// What the asynchronous server saw, update by update.
struct AsyncStats {
  std::vector<int> staleness;  // per update
  std::vector<int> worker;     // who sent it
};

}  // namespace lesson04
