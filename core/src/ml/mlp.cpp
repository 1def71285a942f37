// The MLP's forward and backward passes, GEMMs through OpenBLAS.
#include "ringlab/ml/mlp.hpp"

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <random>
#include <stdexcept>
#include <utility>

#include "ringlab/trace/trace.hpp"

namespace ringlab {

Mlp::Mlp(std::vector<int> sizes, std::size_t split_floats) : sizes_(std::move(sizes)) {
  if (sizes_.size() < 2) throw std::invalid_argument("Mlp needs at least an input and an output size");
  // One BLAS thread per process: the ranks already use the cores, more threads would fight them.
  openblas_set_num_threads(1);
  for (std::size_t l = 1; l < sizes_.size(); ++l) {
    w_offset_.push_back(count_);
    count_ += static_cast<std::size_t>(sizes_[l]) * sizes_[l - 1];
    b_offset_.push_back(count_);
    count_ += static_cast<std::size_t>(sizes_[l]);
    const int layer = static_cast<int>(l), out = sizes_[l], in = sizes_[l - 1];
    // W's rows in blocks of equal size (give or take one row), each at most split_floats.
    const std::size_t w_count = static_cast<std::size_t>(out) * in;
    int blocks = 1;
    if (split_floats > 0 && w_count > split_floats) {
      const int rows_per_block =
          std::max<int>(1, static_cast<int>(split_floats / static_cast<std::size_t>(in)));
      blocks = (out + rows_per_block - 1) / rows_per_block;
    }
    w_first_tensor_.push_back(static_cast<int>(tensors_.size()));
    for (int k = 0, row = 0; k < blocks; ++k) {
      const int rows = out / blocks + (k < out % blocks ? 1 : 0);
      tensors_.push_back({layer, true, w_offset_.back() + static_cast<std::size_t>(row) * in,
                          static_cast<std::size_t>(rows) * in, row, rows, blocks > 1});
      row += rows;
    }
    b_tensor_.push_back(static_cast<int>(tensors_.size()));
    tensors_.push_back({layer, false, b_offset_.back(), static_cast<std::size_t>(out)});
  }
  act_.resize(sizes_.size());
}

std::vector<float> Mlp::initial_parameters(std::uint64_t seed) const {
  std::vector<float> p(count_, 0.0f);
  std::mt19937_64 gen(seed);
  for (std::size_t l = 1; l < sizes_.size(); ++l) {
    std::normal_distribution<float> normal(0.0f, std::sqrt(2.0f / static_cast<float>(sizes_[l - 1])));
    const std::size_t n = static_cast<std::size_t>(sizes_[l]) * sizes_[l - 1];
    for (std::size_t i = 0; i < n; ++i) p[w_offset_[l - 1] + i] = normal(gen);
  }
  return p;
}

void Mlp::forward(const float* params, const float* x, int batch) {
  const std::size_t layers = sizes_.size() - 1;
  act_[0].assign(x, x + static_cast<std::size_t>(batch) * sizes_[0]);
  for (std::size_t l = 1; l <= layers; ++l)
    forward_layer(l, params + w_offset_[l - 1], params + b_offset_[l - 1], batch);
}

void Mlp::forward_layer(std::size_t l, const float* w, const float* b, int batch) {
  const std::size_t layers = sizes_.size() - 1;
  const int in = sizes_[l - 1], out = sizes_[l];
  auto& a = act_[l];
  a.resize(static_cast<std::size_t>(batch) * out);
  for (int i = 0; i < batch; ++i)
    std::memcpy(&a[static_cast<std::size_t>(i) * out], b, sizeof(float) * out);
  // a (batch x out) += a_prev (batch x in) * W^T (in x out)
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, batch, out, in, 1.0f, act_[l - 1].data(), in, w, in,
              1.0f, a.data(), out);
  if (l < layers)
    for (float& v : a) v = std::max(v, 0.0f);  // ReLU
}

double Mlp::softmax_delta(const std::uint8_t* labels, int batch) {
  const std::size_t layers = sizes_.size() - 1;
  const int classes = sizes_.back();
  // Softmax cross-entropy. d(mean loss)/d(logit) = (softmax - one_hot) / batch.
  delta_.resize(static_cast<std::size_t>(batch) * classes);
  double loss = 0;
  for (int i = 0; i < batch; ++i) {
    const float* z = &act_[layers][static_cast<std::size_t>(i) * classes];
    float* d = &delta_[static_cast<std::size_t>(i) * classes];
    const float zmax = *std::max_element(z, z + classes);
    double sum = 0;
    for (int c = 0; c < classes; ++c) sum += std::exp(double(z[c] - zmax));
    loss += std::log(sum) - (z[labels[i]] - zmax);
    for (int c = 0; c < classes; ++c)
      d[c] = static_cast<float>(std::exp(double(z[c] - zmax)) / sum - (c == labels[i] ? 1.0 : 0.0)) / batch;
  }
  return loss;
}

void Mlp::bias_gradient(std::size_t l, float* db, int batch) {
  const int out = sizes_[l];
  std::fill(db, db + out, 0.0f);
  for (int i = 0; i < batch; ++i)
    for (int o = 0; o < out; ++o) db[o] += delta_[static_cast<std::size_t>(i) * out + o];
}

void Mlp::propagate(std::size_t l, const float* w, int batch) {
  const int in = sizes_[l - 1], out = sizes_[l];
  // delta_prev (batch x in) = delta (batch x out) * W (out x in), through the ReLU.
  delta_prev_.resize(static_cast<std::size_t>(batch) * in);
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, batch, in, out, 1.0f, delta_.data(), out, w, in, 0.0f,
              delta_prev_.data(), in);
  const auto& a = act_[l - 1];
  for (std::size_t k = 0; k < delta_prev_.size(); ++k)
    if (a[k] <= 0.0f) delta_prev_[k] = 0.0f;
  std::swap(delta_, delta_prev_);
}

float Mlp::loss_and_gradient(const float* params, const float* x, const std::uint8_t* labels, int batch,
                             float* grad, const std::function<void(int tensor)>& ready) {
  // Compute blocks only for callers that hand gradients out early (lesson 08 draws them beside
  // the allreduces); lesson 06 traces the whole call as one block of its own.
  const bool blocks = ready && trace::enabled();
  if (blocks) {
    trace::Compute tc("forward", 0);
    forward(params, x, batch);
  } else {
    forward(params, x, batch);
  }
  const std::size_t layers = sizes_.size() - 1;
  const double loss = softmax_delta(labels, batch);
  for (std::size_t l = layers; l >= 1; --l) {
    std::optional<trace::Compute> tc;
    if (blocks) tc.emplace("backward", static_cast<int>(l));
    const int in = sizes_[l - 1], out = sizes_[l];
    // db = column sums of delta; dW (out x in) = delta^T (out x batch) * a_prev (batch x in).
    // b_l first, then W_l: the reverse of their order in memory, so that the tensors handed
    // out one after the other are neighbours in the flat array ([ ... | W_l | b_l ]).
    bias_gradient(l, grad + b_offset_[l - 1], batch);
    if (ready) ready(b_tensor_[l - 1]);  // b_l is final: nothing below changes it
    // W_l's rows block by block (one block unless split), the last rows first: each block's
    // rows of dW need only the matching columns of delta.
    const int first = w_first_tensor_[l - 1];
    for (int t = b_tensor_[l - 1] - 1; t >= first; --t) {
      const Tensor& w = tensors_[static_cast<std::size_t>(t)];
      cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, w.rows, in, batch, 1.0f,
                  delta_.data() + w.first_row, out, act_[l - 1].data(), in, 0.0f, grad + w.offset, in);
      if (ready) {   // this block of W_l is final too
        tc.reset();  // the compute block ends where the hook starts (its allreduce is communication)
        ready(t);
        if (blocks && (l > 1 || t > first)) tc.emplace("backward", static_cast<int>(l));
      }
    }
    if (l == 1) break;
    propagate(l, params + w_offset_[l - 1], batch);
  }
  return static_cast<float>(loss / batch);
}

int Mlp::count_correct(const float* params, const float* x, const std::uint8_t* labels, int batch) {
  forward(params, x, batch);
  const int classes = sizes_.back();
  const auto& z = act_.back();
  int correct = 0;
  for (int i = 0; i < batch; ++i) {
    const float* row = &z[static_cast<std::size_t>(i) * classes];
    correct += (std::max_element(row, row + classes) - row) == labels[i];
  }
  return correct;
}

int Mlp::upload_examples(const float* x, const std::uint8_t* labels, int count) {
  sets_.push_back({x, labels, count, {}});
  return static_cast<int>(sets_.size()) - 1;
}

void Mlp::set_order(int set, const std::vector<int>& order) { sets_.at(static_cast<std::size_t>(set)).order = order; }

void Mlp::gather_batch(int set, int first, int count) {
  const Set& s = sets_.at(static_cast<std::size_t>(set));
  const std::size_t f = static_cast<std::size_t>(sizes_.front());
  batch_x_.resize(static_cast<std::size_t>(count) * f);
  batch_y_.resize(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {  // the examples of the batch, in one block for the GEMMs
    const std::size_t e = static_cast<std::size_t>(s.order[static_cast<std::size_t>(first + i)]);
    std::copy(s.x + e * f, s.x + (e + 1) * f, batch_x_.begin() + static_cast<std::ptrdiff_t>(i * f));
    batch_y_[static_cast<std::size_t>(i)] = s.labels[e];
  }
}

void Mlp::loss_and_gradient(const float* params, int set, int first, int count, float* grad,
                            const std::function<void(int tensor)>& ready) {
  gather_batch(set, first, count);
  loss_sum_ += loss_and_gradient(params, batch_x_.data(), batch_y_.data(), count, grad, ready);
}

std::vector<Chunk> Mlp::layers() const {
  std::vector<Chunk> spans;
  for (std::size_t l = 1; l < sizes_.size(); ++l)
    spans.push_back({w_offset_[l - 1], b_offset_[l - 1] + static_cast<std::size_t>(sizes_[l]) - w_offset_[l - 1]});
  return spans;
}

// The passes of loss_and_gradient above, each layer's parameters and gradient through the hooks
// (mlp_layers.hpp): the same helpers in the same order, so the same numbers come out.
void Mlp::loss_and_gradient_by_layer(int set, int first, int count, const LayerHooks& hooks) {
  gather_batch(set, first, count);
  const std::size_t layers = sizes_.size() - 1;
  act_[0] = batch_x_;
  for (std::size_t l = 1; l <= layers; ++l) {
    const int layer = static_cast<int>(l);
    const float* w = hooks.params(layer, false);  // [ W_l | b_l ]
    {
      std::optional<trace::Compute> tc;
      if (trace::enabled()) tc.emplace("forward", layer);
      forward_layer(l, w, w + static_cast<std::size_t>(sizes_[l]) * sizes_[l - 1], count);
    }
    hooks.release(layer, false);
  }
  const double loss = softmax_delta(batch_y_.data(), count);
  for (std::size_t l = layers; l >= 1; --l) {
    const int layer = static_cast<int>(l), in = sizes_[l - 1], out = sizes_[l];
    float* g = hooks.grad(layer);                                   // [ dW_l | db_l ]
    const float* w = l > 1 ? hooks.params(layer, true) : nullptr;  // layer 1 passes nothing down
    {
      std::optional<trace::Compute> tc;
      if (trace::enabled()) tc.emplace("backward", layer);
      bias_gradient(l, g + static_cast<std::size_t>(out) * in, count);
      // dW (out x in) = delta^T (out x batch) * a_prev (batch x in)
      cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, out, in, count, 1.0f, delta_.data(), out,
                  act_[l - 1].data(), in, 0.0f, g, in);
      if (l > 1) propagate(l, w, count);
    }
    if (l > 1) hooks.release(layer, true);
    hooks.grad_ready(layer);
  }
  loss_sum_ += static_cast<float>(loss / count);
}

double Mlp::take_loss_sum() { return std::exchange(loss_sum_, 0.0); }

int Mlp::count_correct(const float* params, int set, int first, int count) {
  const Set& s = sets_.at(static_cast<std::size_t>(set));
  const std::size_t f = static_cast<std::size_t>(sizes_.front());
  int correct = 0;
  for (int i = 0; i < count; i += 1000) {  // in pieces: the activations are as large as the batch
    const int n = std::min(1000, count - i), at = first + i;
    correct += count_correct(params, s.x + static_cast<std::size_t>(at) * f, s.labels + at, n);
  }
  return correct;
}

std::uint64_t hash_floats(const float* data, std::size_t count, std::uint64_t h) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < count * sizeof(float); ++i) {
    h ^= bytes[i];
    h *= 1099511628211ull;
  }
  return h;
}

}  // namespace ringlab
