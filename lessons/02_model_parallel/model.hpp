// Lesson 02's model and its data, the same for the pipeline (main.cpp), the one-process model it
// is checked against (check.hpp) and the bubble's bench (bench.hpp): the sizes, the layers, the
// batches, and what a training run leaves behind.
#pragma once
#include <cmath>
#include <random>
#include <vector>

#include "model_parallel.hpp"
#include "ringlab/ringlab.hpp"

namespace lesson02 {

struct Config {
  int width = 128;  // every layer is width x width
  int layers_per_rank = 2;
  int batch = 64;
  int steps = 5;
  double lr = 0.5;
  std::vector<int> microbatches;  // empty: the lesson's default list
};

// Layers [first, first + count) of the model with `total` layers, in host or GPU memory.
inline std::vector<lesson02::Layer> make_layers(const Config& c, int first, int count, int total,
                                                Where where) {
  std::vector<lesson02::Layer> layers;
  for (int l = first; l < first + count; ++l)
    layers.push_back(lesson02::make_layer(c.width, c.width, l < total - 1, l, where));
  return layers;
}

// The batch of step `step`, the same on every rank: random inputs, and targets the model can
// learn (a fixed smooth function of the inputs), so the loss goes down.
inline void make_batch(const Config& c, int step, std::vector<double>& x, std::vector<double>& t) {
  std::mt19937_64 gen(42 + step % 2);  // two batches, alternating
  std::normal_distribution<double> n(0.0, 1.0);
  x.resize(static_cast<std::size_t>(c.batch) * c.width);
  t.resize(x.size());
  for (auto& v : x) v = n(gen);
  for (std::size_t i = 0; i < t.size(); ++i) t[i] = 0.5 * std::sin(x[i]);
}

struct TrainResult {
  std::vector<double> losses;           // per step, the same on every rank
  std::vector<lesson02::Layer> layers;  // this rank's layers after training
};

}  // namespace lesson02
