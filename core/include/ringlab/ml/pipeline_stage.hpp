// Lesson 02 — the arithmetic of one pipeline stage: a few dense layers, no communication.
//
// A stage is a run of consecutive layers of one MLP. Every layer maps `width` numbers to
// `width` numbers, y = tanh(x W + b) (the model's very last layer leaves out the tanh), so that
// every stage costs the same and the pipeline's bubble can be compared with the theory.
// Everything is double so that the pipelined model and the one-process model agree to ~1e-15.
//
// A stage's numbers live where its rank computes: host memory, or its GPU with --device cuda.
// Each function below is the host loop; when the buffers are on a GPU it hands the same loop,
// as a CUDA kernel, to pipeline_stage_device.hpp instead. The pipeline (model_parallel.hpp) never asks.
//
// This file is plain single-process code: the distribution lives in model_parallel.hpp.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "ringlab/ml/pipeline_stage_device.hpp"
#include "ringlab/comm/memory.hpp"

namespace ringlab::pipeline {
using ringlab::Buffer;
using ringlab::View;
using ringlab::Where;

// The first element of a buffer, wherever it lives.
inline double* at(const Buffer<double>& b) { return b.view().data(); }

// dst = src, element by element; either may be host or device memory (an upload, a download).
inline void copy_values(View<double> dst, View<const double> src) {
  if (dst.where() == Where::device || src.where() == Where::device)
    device::copy(dst.data(), src.data(), src.bytes());
  else std::copy(src.begin(), src.end(), dst.begin());
}

// Host numbers in a buffer where `where` says (host memory, or the GPU's: an upload).
inline Buffer<double> to_buffer(const std::vector<double>& values, Where where) {
  Buffer<double> b(values.size(), where);
  copy_values(b.view(), View<const double>(values));
  return b;
}

// A buffer's numbers in host memory (a download from the GPU), to print or compare.
inline std::vector<double> to_host(const Buffer<double>& b) {
  std::vector<double> values(b.size());
  copy_values(View<double>(values), View<const double>(b.view()));
  return values;
}

struct Layer {
  int in = 0, out = 0;
  bool tanh_after = true;  // false for the model's output layer
  Buffer<double> w, b;     // w is in x out, row-major: y[o] = b[o] + sum_i x[i] * w[i*out + o]
  Buffer<double> gw, gb;   // gradients, summed over the microbatches of one step
  Where where() const { return w.where(); }
};

// Layer number `index` of the model gets the same numbers whichever rank builds it: the seed
// is the layer's index in the whole model, not in a stage. `where`: host memory or the GPU.
inline Layer make_layer(int in, int out, bool tanh_after, int index, Where where = Where::host) {
  std::mt19937_64 gen(1000 + 17 * static_cast<std::uint64_t>(index));
  std::uniform_real_distribution<double> u(-1.0 / std::sqrt(in), 1.0 / std::sqrt(in));
  std::vector<double> w(static_cast<std::size_t>(in) * out), b(out);
  for (auto& v : w) v = u(gen);
  for (auto& v : b) v = 0.1 * u(gen);
  Layer l{in, out, tanh_after, to_buffer(w, where), to_buffer(b, where), {}, {}};
  l.gw = to_buffer(std::vector<double>(w.size(), 0.0), where);
  l.gb = to_buffer(std::vector<double>(b.size(), 0.0), where);
  return l;
}

// y[rows x out] = act(x[rows x in] W + b)
inline void layer_forward(const Layer& l, const double* x, double* y, int rows) {
  if (l.where() == Where::device)
    return device::layer_forward(l.in, l.out, l.tanh_after, at(l.w), at(l.b), x, y, rows);
  const double* w = at(l.w);
  const double* b = at(l.b);
  for (int r = 0; r < rows; ++r) {
    double* yr = y + static_cast<std::size_t>(r) * l.out;
    const double* xr = x + static_cast<std::size_t>(r) * l.in;
    for (int o = 0; o < l.out; ++o) yr[o] = b[o];
    for (int i = 0; i < l.in; ++i) {
      const double xi = xr[i];
      const double* wi = &w[static_cast<std::size_t>(i) * l.out];
      for (int o = 0; o < l.out; ++o) yr[o] += xi * wi[o];
    }
    if (l.tanh_after)
      for (int o = 0; o < l.out; ++o) yr[o] = std::tanh(yr[o]);
  }
}

// Given the layer's input x, its output y and dL/dy: adds dL/dW, dL/db into gw, gb and writes
// dL/dx. `dy` is overwritten (it becomes dL/d(pre-activation)).
inline void layer_backward(Layer& l, const double* x, const double* y, double* dy, double* dx, int rows) {
  if (l.where() == Where::device)
    return device::layer_backward(l.in, l.out, l.tanh_after, at(l.w), at(l.gw), at(l.gb), x, y, dy, dx, rows);
  const double* w = at(l.w);
  double* gw = at(l.gw);
  double* gb = at(l.gb);
  for (int r = 0; r < rows; ++r) {
    double* dz = dy + static_cast<std::size_t>(r) * l.out;
    const double* yr = y + static_cast<std::size_t>(r) * l.out;
    const double* xr = x + static_cast<std::size_t>(r) * l.in;
    double* dxr = dx + static_cast<std::size_t>(r) * l.in;
    if (l.tanh_after)
      for (int o = 0; o < l.out; ++o) dz[o] *= 1.0 - yr[o] * yr[o];  // tanh' = 1 - tanh^2
    for (int o = 0; o < l.out; ++o) gb[o] += dz[o];
    for (int i = 0; i < l.in; ++i) {
      double* gwi = &gw[static_cast<std::size_t>(i) * l.out];
      const double* wi = &w[static_cast<std::size_t>(i) * l.out];
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
  if (l.where() == Where::device) {
    device::sgd_update(at(l.w), at(l.gw), l.w.size(), lr);
    device::sgd_update(at(l.b), at(l.gb), l.b.size(), lr);
    return;
  }
  double *w = at(l.w), *gw = at(l.gw), *b = at(l.b), *gb = at(l.gb);
  for (std::size_t i = 0; i < l.w.size(); ++i) w[i] -= lr * gw[i];
  for (std::size_t i = 0; i < l.b.size(); ++i) b[i] -= lr * gb[i];
  std::fill(gw, gw + l.gw.size(), 0.0);
  std::fill(gb, gb + l.gb.size(), 0.0);
}

// A stage: its layers, and for each microbatch in flight the activations the backward pass
// needs. act[m][k] is the input of layer k for microbatch m; act[m][layers] is the stage's
// output. GPipe keeps all M microbatches' activations alive until their backward pass: that
// memory is the price of the schedule. Every buffer is where the layers are.
struct Stage {
  std::vector<Layer> layers;
  int rows = 0;  // rows per microbatch
  std::vector<std::vector<Buffer<double>>> act;
  std::vector<Buffer<double>> grad_out;  // dL/d(output) per microbatch
  std::vector<Buffer<double>> grad_in;   // dL/d(input) per microbatch
  Buffer<double> dy, dx;                 // the gradient going back through the layers (backward)
  double busy_us = 0;                    // time spent computing (for the bubble)
  int in_width() const { return layers.front().in; }
  int out_width() const { return layers.back().out; }
  Where where() const { return layers.front().where(); }
};

// Sizes the buffers for `microbatches` microbatches of `rows` rows each (kept from the last
// step when the sizes are the same: on a GPU, allocating is slow enough to blur the bubble).
inline void prepare(Stage& s, int microbatches, int rows) {
  if (s.rows == rows && s.act.size() == static_cast<std::size_t>(microbatches)) return;
  const auto values = [&](int width) {
    return Buffer<double>(static_cast<std::size_t>(rows) * width, s.where());
  };
  s.rows = rows;
  s.act.clear();
  s.act.resize(microbatches);
  s.grad_out.clear();
  s.grad_in.clear();
  for (auto& a : s.act) {  // microbatch by microbatch
    for (const Layer& l : s.layers) a.push_back(values(l.in));
    a.push_back(values(s.out_width()));
    s.grad_out.push_back(values(s.out_width()));
    s.grad_in.push_back(values(s.in_width()));
  }
  int widest = 0;
  for (const Layer& l : s.layers) widest = std::max({widest, l.in, l.out});
  s.dy = values(widest);
  s.dx = values(widest);
}

// Microbatch m through every layer of the stage: act[m][0] -> act[m][layers].
inline void stage_compute_forward(Stage& s, int m) {
  for (std::size_t k = 0; k < s.layers.size(); ++k)
    layer_forward(s.layers[k], at(s.act[m][k]), at(s.act[m][k + 1]), s.rows);
  if (s.where() == Where::device) device::synchronize();  // busy until the GPU is done
}

// Microbatch m backwards through every layer: grad_out[m] -> grad_in[m], weight gradients added.
inline void stage_compute_backward(Stage& s, int m) {
  const auto rows_of = [&](const Buffer<double>& b, int width) {
    return b.view().sub(0, static_cast<std::size_t>(s.rows) * width);
  };
  copy_values(rows_of(s.dy, s.out_width()), View<const double>(s.grad_out[m].view()));
  for (std::size_t k = s.layers.size(); k-- > 0;) {
    layer_backward(s.layers[k], at(s.act[m][k]), at(s.act[m][k + 1]), at(s.dy), at(s.dx), s.rows);
    std::swap(s.dy, s.dx);
  }
  copy_values(s.grad_in[m].view(), View<const double>(rows_of(s.dy, s.in_width())));
  if (s.where() == Where::device) device::synchronize();  // busy until the GPU is done
}

// Mean-squared-error loss of the whole batch, 0.5/batch * sum (out - target)^2, for the rows of
// one microbatch; writes dL/d(out) into grad. Dividing by the *global* batch size makes the
// microbatches' gradients add up to exactly the gradient of the whole batch.
inline double mse_loss(View<const double> out, View<const double> target, int batch, View<double> grad) {
  if (out.where() == Where::device)
    return device::mse_loss(out.data(), target.data(), out.size(), batch, grad.data());
  double loss = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const double d = out[i] - target[i];
    loss += 0.5 * d * d / batch;
    grad[i] = d / batch;
  }
  return loss;
}

}  // namespace ringlab::pipeline
