// Lesson 02 — the arithmetic of one pipeline stage: a few dense layers, no communication.
//
// A stage is a run of consecutive layers of one MLP. Every layer maps `width` numbers to
// `width` numbers, y = tanh(x W + b) (the model's very last layer leaves out the tanh), so that
// every stage costs the same and the pipeline's bubble can be compared with the theory.
// Everything is double so that the pipelined model and the one-process model agree to ~1e-15.
//
// This file is plain single-process code: the distribution lives in model_parallel.hpp.
#pragma once
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace lesson02 {

struct Layer {
  int in = 0, out = 0;
  bool tanh_after = true;      // false for the model's output layer
  std::vector<double> w, b;    // w is in x out, row-major: y[o] = b[o] + sum_i x[i] * w[i*out + o]
  std::vector<double> gw, gb;  // gradients, summed over the microbatches of one step
};

// Layer number `index` of the model gets the same numbers whichever rank builds it: the seed
// is the layer's index in the whole model, not in a stage.
inline Layer make_layer(int in, int out, bool tanh_after, int index) {
  Layer l{in, out, tanh_after, {}, {}, {}, {}};
  std::mt19937_64 gen(1000 + 17 * static_cast<std::uint64_t>(index));
  std::uniform_real_distribution<double> u(-1.0 / std::sqrt(in), 1.0 / std::sqrt(in));
  l.w.resize(static_cast<std::size_t>(in) * out);
  l.b.resize(out);
  for (auto& v : l.w) v = u(gen);
  for (auto& v : l.b) v = 0.1 * u(gen);
  l.gw.assign(l.w.size(), 0.0);
  l.gb.assign(l.b.size(), 0.0);
  return l;
}

// y[rows x out] = act(x[rows x in] W + b)
inline void layer_forward(const Layer& l, const double* x, double* y, int rows) {
  for (int r = 0; r < rows; ++r) {
    double* yr = y + static_cast<std::size_t>(r) * l.out;
    const double* xr = x + static_cast<std::size_t>(r) * l.in;
    for (int o = 0; o < l.out; ++o) yr[o] = l.b[o];
    for (int i = 0; i < l.in; ++i) {
      const double xi = xr[i];
      const double* wi = &l.w[static_cast<std::size_t>(i) * l.out];
      for (int o = 0; o < l.out; ++o) yr[o] += xi * wi[o];
    }
    if (l.tanh_after)
      for (int o = 0; o < l.out; ++o) yr[o] = std::tanh(yr[o]);
  }
}

// Given the layer's input x, its output y and dL/dy: adds dL/dW, dL/db into gw, gb and writes
// dL/dx. `dy` is overwritten (it becomes dL/d(pre-activation)).
inline void layer_backward(Layer& l, const double* x, const double* y, double* dy, double* dx, int rows) {
  for (int r = 0; r < rows; ++r) {
    double* dz = dy + static_cast<std::size_t>(r) * l.out;
    const double* yr = y + static_cast<std::size_t>(r) * l.out;
    const double* xr = x + static_cast<std::size_t>(r) * l.in;
    double* dxr = dx + static_cast<std::size_t>(r) * l.in;
    if (l.tanh_after)
      for (int o = 0; o < l.out; ++o) dz[o] *= 1.0 - yr[o] * yr[o];  // tanh' = 1 - tanh^2
    for (int o = 0; o < l.out; ++o) l.gb[o] += dz[o];
    for (int i = 0; i < l.in; ++i) {
      double* gwi = &l.gw[static_cast<std::size_t>(i) * l.out];
      const double* wi = &l.w[static_cast<std::size_t>(i) * l.out];
      const double xi = xr[i];
      double s = 0;
      for (int o = 0; o < l.out; ++o) {
        gwi[o] += xi * dz[o];
        s += wi[o] * dz[o];
      }
      dxr[i] = s;
    }
  }
}

inline void sgd_update(Layer& l, double lr) {
  for (std::size_t i = 0; i < l.w.size(); ++i) l.w[i] -= lr * l.gw[i];
  for (std::size_t i = 0; i < l.b.size(); ++i) l.b[i] -= lr * l.gb[i];
  std::fill(l.gw.begin(), l.gw.end(), 0.0);
  std::fill(l.gb.begin(), l.gb.end(), 0.0);
}

// A stage: its layers, and for each microbatch in flight the activations the backward pass
// needs. act[m][k] is the input of layer k for microbatch m; act[m][layers] is the stage's
// output. GPipe keeps all M microbatches' activations alive until their backward pass: that
// memory is the price of the schedule.
struct Stage {
  std::vector<Layer> layers;
  int rows = 0;  // rows per microbatch
  std::vector<std::vector<std::vector<double>>> act;
  std::vector<std::vector<double>> grad_out;  // dL/d(output) per microbatch
  std::vector<std::vector<double>> grad_in;   // dL/d(input) per microbatch
  double busy_us = 0;                         // time spent computing (for the bubble)
  int in_width() const { return layers.front().in; }
  int out_width() const { return layers.back().out; }
};

// Sizes the buffers for `microbatches` microbatches of `rows` rows each.
inline void prepare(Stage& s, int microbatches, int rows) {
  s.rows = rows;
  s.act.assign(microbatches, {});
  for (auto& a : s.act) {
    a.resize(s.layers.size() + 1);
    for (std::size_t k = 0; k < s.layers.size(); ++k)
      a[k].assign(static_cast<std::size_t>(rows) * s.layers[k].in, 0.0);
    a.back().assign(static_cast<std::size_t>(rows) * s.out_width(), 0.0);
  }
  s.grad_out.assign(microbatches, std::vector<double>(static_cast<std::size_t>(rows) * s.out_width()));
  s.grad_in.assign(microbatches, std::vector<double>(static_cast<std::size_t>(rows) * s.in_width()));
}

// Microbatch m through every layer of the stage: act[m][0] -> act[m][layers].
inline void stage_compute_forward(Stage& s, int m) {
  for (std::size_t k = 0; k < s.layers.size(); ++k)
    layer_forward(s.layers[k], s.act[m][k].data(), s.act[m][k + 1].data(), s.rows);
}

// Microbatch m backwards through every layer: grad_out[m] -> grad_in[m], weight gradients added.
inline void stage_compute_backward(Stage& s, int m) {
  std::vector<double> dy = s.grad_out[m], dx;
  for (std::size_t k = s.layers.size(); k-- > 0;) {
    dx.assign(static_cast<std::size_t>(s.rows) * s.layers[k].in, 0.0);
    layer_backward(s.layers[k], s.act[m][k].data(), s.act[m][k + 1].data(), dy.data(), dx.data(), s.rows);
    dy.swap(dx);
  }
  s.grad_in[m] = std::move(dy);
}

// Mean-squared-error loss of the whole batch, 0.5/batch * sum (out - target)^2, for the rows of
// one microbatch; writes dL/d(out) into grad. Dividing by the *global* batch size makes the
// microbatches' gradients add up to exactly the gradient of the whole batch.
inline double mse_loss(const std::vector<double>& out, const double* target, int batch,
                       std::vector<double>& grad) {
  double loss = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const double d = out[i] - target[i];
    loss += 0.5 * d * d / batch;
    grad[i] = d / batch;
  }
  return loss;
}

}  // namespace lesson02
