// The MLP on a GPU (mlp_device.hpp): the same passes as mlp.cpp, the GEMMs through cuBLAS, the
// rest in small kernels named for what they compute. Read it beside mlp.cpp: each step below
// is the one with the same comment there.
//
// Row-major through a column-major library: cuBLAS reads a row-major M x N matrix as its
// column-major transpose. So C = op(A) op(B) (row-major) is computed as C^T = op(B)^T op(A)^T:
// the same transpose flags, the operands swapped, M and N swapped (gemm_row_major below).
//
// Compiled with -fmad=false (core/CMakeLists.txt) and no fast-math. Everything runs on the
// default stream (cuBLAS's too), in order with the communicator's copies: no synchronisation
// is needed between a gradient and the allreduce that reads it.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "ringlab/base/cuda_grid.cuh"
#include "ringlab/ml/mlp_device.hpp"

namespace ringlab {
namespace {

void check(cudaError_t err, const char* what) {
  if (err != cudaSuccess)
    throw std::runtime_error(std::string("DeviceMlp: ") + what + ": " + cudaGetErrorString(err));
}
void check(cublasStatus_t status, const char* what) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error(std::string("DeviceMlp: ") + what + ": " + cublasGetStatusString(status));
}

// An array in GPU memory that only grows (activations are sized for the largest batch seen).
template <class T> class DeviceArray {
 public:
  DeviceArray() = default;
  ~DeviceArray() { cudaFree(p_); }
  DeviceArray(DeviceArray&& o) noexcept { swap(o); }
  DeviceArray& operator=(DeviceArray&& o) noexcept {
    swap(o);
    return *this;
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  void swap(DeviceArray& o) noexcept {
    std::swap(p_, o.p_);
    std::swap(n_, o.n_);
  }
  void reserve(std::size_t n) {
    if (n <= n_) return;
    cudaFree(p_);
    p_ = nullptr;
    check(cudaMalloc(reinterpret_cast<void**>(&p_), n * sizeof(T)), "cudaMalloc");
    n_ = n;
  }
  T* get() const { return p_; }

 private:
  T* p_ = nullptr;
  std::size_t n_ = 0;
};

using cuda_grid::blocks_for;  // the kit's launch shape (ringlab/cuda_grid.cuh)
using cuda_grid::kThreads;
#define RINGLAB_GRID_STRIDE(i, n)                                                   \
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < (n); \
       i += std::size_t(gridDim.x) * blockDim.x)

// x[i] = set_x[order[first + i]], y[i] = set_y[order[first + i]]: the batch, gathered.
__global__ void gather_examples(float* x, std::uint8_t* y, const float* set_x, const std::uint8_t* set_y,
                                const int* order, int first, int count, int features) {
  RINGLAB_GRID_STRIDE(k, std::size_t(count) * features) {
    const std::size_t i = k / features, j = k % features;
    const std::size_t e = static_cast<std::size_t>(order[first + i]);
    x[k] = set_x[e * features + j];
    if (j == 0) y[i] = set_y[e];
  }
}

// a[i][o] += b[o], then ReLU on hidden layers (the last layer's logits stay as they are).
__global__ void add_bias_relu(float* a, const float* b, int batch, int out, bool relu) {
  RINGLAB_GRID_STRIDE(k, std::size_t(batch) * out) {
    const float v = a[k] + b[k % out];
    a[k] = relu ? fmaxf(v, 0.0f) : v;
  }
}

// One row per thread, in double like mlp.cpp: delta = (softmax(z) - one_hot(label)) / batch,
// and the row's loss log(sum exp(z - zmax)) - (z[label] - zmax).
__global__ void softmax_cross_entropy(const float* z, const std::uint8_t* labels, float* delta,
                                      double* row_loss, int batch, int classes) {
  RINGLAB_GRID_STRIDE(i, std::size_t(batch)) {
    const float* zi = z + i * classes;
    float* di = delta + i * classes;
    float zmax = zi[0];
    for (int c = 1; c < classes; ++c) zmax = fmaxf(zmax, zi[c]);
    double sum = 0;
    for (int c = 0; c < classes; ++c) sum += exp(double(zi[c] - zmax));
    const int label = labels[i];
    row_loss[i] = log(sum) - double(zi[label] - zmax);
    for (int c = 0; c < classes; ++c)
      di[c] = static_cast<float>(exp(double(zi[c] - zmax)) / sum - (c == label ? 1.0 : 0.0)) / batch;
  }
}

// *loss_sum += mean of row_loss, in one block: a fixed order of additions, so the same batch
// gives the same loss on every run (atomics would not).
__global__ void add_mean_loss(const double* row_loss, int batch, double* loss_sum) {
  __shared__ double part[kThreads];
  double s = 0;
  for (int i = threadIdx.x; i < batch; i += kThreads) s += row_loss[i];
  part[threadIdx.x] = s;
  __syncthreads();
  for (int half = kThreads / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) part[threadIdx.x] += part[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) *loss_sum += part[0] / batch;
}

// db[o] = sum over the batch of delta[i][o], one output per thread, in the order mlp.cpp adds.
__global__ void bias_gradient(const float* delta, float* db, int batch, int out) {
  RINGLAB_GRID_STRIDE(o, std::size_t(out)) {
    float s = 0.0f;
    for (int i = 0; i < batch; ++i) s += delta[std::size_t(i) * out + o];
    db[o] = s;
  }
}

// The ReLU's derivative: no gradient flows back where the activation was clipped to 0.
__global__ void relu_backward(float* delta, const float* a, std::size_t n) {
  RINGLAB_GRID_STRIDE(k, n) {
    if (a[k] <= 0.0f) delta[k] = 0.0f;
  }
}

// *correct += the rows whose arg max (the first one on ties) is the label.
__global__ void count_argmax_hits(const float* z, const std::uint8_t* labels, int batch, int classes,
                                  int* correct) {
  RINGLAB_GRID_STRIDE(i, std::size_t(batch)) {
    const float* zi = z + i * classes;
    int best = 0;
    for (int c = 1; c < classes; ++c)
      if (zi[c] > zi[best]) best = c;
    if (best == labels[i]) atomicAdd(correct, 1);
  }
}

}  // namespace

struct DeviceMlp::Impl {
  std::vector<int> sizes;
  std::vector<std::size_t> w_offset, b_offset;
  std::size_t count = 0;
  cublasHandle_t blas = nullptr;

  struct Set {
    DeviceArray<float> x;
    DeviceArray<std::uint8_t> y;
    DeviceArray<int> order;
    int count = 0;
  };
  std::vector<Set> sets;

  int capacity = 0;                        // the largest batch the arrays below hold
  std::vector<DeviceArray<float>> act;     // act[l] = output of layer l (act[0]: the gathered batch)
  DeviceArray<std::uint8_t> batch_labels;  // the gathered batch's labels
  DeviceArray<float> delta, delta_prev;    // gradients flowing back through the layers
  DeviceArray<double> row_loss, loss_sum;  // per-example losses; their running sum of means
  DeviceArray<int> correct;

  void reserve(int batch) {
    if (batch <= capacity) return;
    std::size_t widest = 0;
    for (std::size_t l = 0; l < sizes.size(); ++l) {
      act[l].reserve(std::size_t(batch) * sizes[l]);
      if (l > 0) widest = std::max<std::size_t>(widest, sizes[l]);
    }
    batch_labels.reserve(batch);
    delta.reserve(std::size_t(batch) * std::max<std::size_t>(widest, sizes[0]));
    delta_prev.reserve(std::size_t(batch) * std::max<std::size_t>(widest, sizes[0]));
    row_loss.reserve(batch);
    capacity = batch;
  }

  // C (M x N) = alpha op(A) op(B) + beta C, all row-major, as cblas_sgemm(CblasRowMajor, ...):
  // cuBLAS computes C^T = op(B)^T op(A)^T on the same memory read column-major.
  void gemm_row_major(bool trans_a, bool trans_b, int m, int n, int k, const float* a, int lda,
                      const float* b, int ldb, float beta, float* c, int ldc) {
    const float alpha = 1.0f;
    check(cublasSgemm(blas, trans_b ? CUBLAS_OP_T : CUBLAS_OP_N, trans_a ? CUBLAS_OP_T : CUBLAS_OP_N, n, m, k,
                      &alpha, b, ldb, a, lda, &beta, c, ldc),
          "cublasSgemm");
  }

  // Forward pass of `batch` rows starting at x (device memory); act[l] for l >= 1 filled.
  // Returns the logits (batch x classes).
  const float* forward(const float* params, const float* x, int batch) {
    const std::size_t layers = sizes.size() - 1;
    const float* prev = x;
    for (std::size_t l = 1; l <= layers; ++l)
      prev = forward_layer(l, params + w_offset[l - 1], params + b_offset[l - 1], prev, batch);
    return prev;
  }
  // Layer l of the forward pass: act[l] from `prev` (act[l-1], or the input), W and b wherever they are.
  float* forward_layer(std::size_t l, const float* w, const float* b, const float* prev, int batch) {
    const std::size_t layers = sizes.size() - 1;
    const int in = sizes[l - 1], out = sizes[l];
    float* a = act[l].get();
    // a (batch x out) = a_prev (batch x in) * W^T (in x out), then + b and ReLU
    gemm_row_major(false, true, batch, out, in, prev, in, w, in, 0.0f, a, out);
    add_bias_relu<<<blocks_for(std::size_t(batch) * out), kThreads>>>(a, b, batch, out, l < layers);
    check(cudaGetLastError(), "add_bias_relu");
    return a;
  }
};

DeviceMlp::DeviceMlp(std::vector<int> sizes) : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.sizes = std::move(sizes);
  if (m.sizes.size() < 2) throw std::invalid_argument("DeviceMlp needs at least an input and an output size");
  for (std::size_t l = 1; l < m.sizes.size(); ++l) {  // the layout of mlp.cpp, element for element
    m.w_offset.push_back(m.count);
    m.count += static_cast<std::size_t>(m.sizes[l]) * m.sizes[l - 1];
    m.b_offset.push_back(m.count);
    m.count += static_cast<std::size_t>(m.sizes[l]);
  }
  m.act.resize(m.sizes.size());
  check(cublasCreate(&m.blas), "cublasCreate");
  // Pinned, not left to defaults: plain FP32 arithmetic (no TF32 tensor cores, which round the
  // inputs to 10 mantissa bits), so the GPU's gradient stays within float rounding of the CPU's.
  check(cublasSetMathMode(m.blas, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
  m.loss_sum.reserve(1);
  m.correct.reserve(1);
  check(cudaMemset(m.loss_sum.get(), 0, sizeof(double)), "cudaMemset");
}

DeviceMlp::~DeviceMlp() {
  if (impl_ && impl_->blas) cublasDestroy(impl_->blas);
}

std::size_t DeviceMlp::parameter_count() const { return impl_->count; }

int DeviceMlp::upload_examples(const float* x, const std::uint8_t* labels, int count) {
  Impl::Set s;
  const std::size_t f = static_cast<std::size_t>(impl_->sizes[0]);
  s.x.reserve(std::max<std::size_t>(1, std::size_t(count) * f));
  s.y.reserve(std::max(1, count));
  s.count = count;
  check(cudaMemcpy(s.x.get(), x, std::size_t(count) * f * sizeof(float), cudaMemcpyHostToDevice), "upload x");
  check(cudaMemcpy(s.y.get(), labels, std::size_t(count), cudaMemcpyHostToDevice), "upload labels");
  impl_->sets.push_back(std::move(s));
  return static_cast<int>(impl_->sets.size()) - 1;
}

void DeviceMlp::set_order(int set, const std::vector<int>& order) {
  Impl::Set& s = impl_->sets.at(static_cast<std::size_t>(set));
  s.order.reserve(std::max<std::size_t>(1, order.size()));
  check(cudaMemcpy(s.order.get(), order.data(), order.size() * sizeof(int), cudaMemcpyHostToDevice),
        "upload order");
}

void DeviceMlp::loss_and_gradient(const float* params, int set, int first, int count, float* grad) {
  Impl& m = *impl_;
  const Impl::Set& s = m.sets.at(static_cast<std::size_t>(set));
  if (count <= 0)
    throw std::invalid_argument("DeviceMlp::loss_and_gradient: a batch of " + std::to_string(count));
  m.reserve(count);
  const int features = m.sizes[0];
  gather_examples<<<blocks_for(std::size_t(count) * features), kThreads>>>(
      m.act[0].get(), m.batch_labels.get(), s.x.get(), s.y.get(), s.order.get(), first, count, features);
  check(cudaGetLastError(), "gather_examples");
  const float* logits = m.forward(params, m.act[0].get(), count);

  // Softmax cross-entropy. d(mean loss)/d(logit) = (softmax - one_hot) / batch.
  const std::size_t layers = m.sizes.size() - 1;
  const int classes = m.sizes.back();
  softmax_cross_entropy<<<blocks_for(count), kThreads>>>(logits, m.batch_labels.get(), m.delta.get(),
                                                         m.row_loss.get(), count, classes);
  check(cudaGetLastError(), "softmax_cross_entropy");
  add_mean_loss<<<1, kThreads>>>(m.row_loss.get(), count, m.loss_sum.get());
  check(cudaGetLastError(), "add_mean_loss");

  for (std::size_t l = layers; l >= 1; --l) {
    const int in = m.sizes[l - 1], out = m.sizes[l];
    // db = column sums of delta; dW (out x in) = delta^T (out x batch) * a_prev (batch x in).
    bias_gradient<<<blocks_for(out), kThreads>>>(m.delta.get(), grad + m.b_offset[l - 1], count, out);
    check(cudaGetLastError(), "bias_gradient");
    m.gemm_row_major(true, false, out, in, count, m.delta.get(), out, m.act[l - 1].get(), in, 0.0f,
                     grad + m.w_offset[l - 1], in);
    if (l == 1) break;
    // delta_prev (batch x in) = delta (batch x out) * W (out x in), through the ReLU.
    m.gemm_row_major(false, false, count, in, out, m.delta.get(), out, params + m.w_offset[l - 1], in, 0.0f,
                     m.delta_prev.get(), in);
    const std::size_t n = std::size_t(count) * in;
    relu_backward<<<blocks_for(n), kThreads>>>(m.delta_prev.get(), m.act[l - 1].get(), n);
    check(cudaGetLastError(), "relu_backward");
    m.delta.swap(m.delta_prev);
  }
}

double DeviceMlp::take_loss_sum() {
  double sum = 0;
  check(cudaMemcpy(&sum, impl_->loss_sum.get(), sizeof sum, cudaMemcpyDeviceToHost), "loss download");
  check(cudaMemset(impl_->loss_sum.get(), 0, sizeof(double)), "cudaMemset");
  return sum;
}

int DeviceMlp::count_correct(const float* params, int set, int first, int count) {
  Impl& m = *impl_;
  const Impl::Set& s = m.sets.at(static_cast<std::size_t>(set));
  const int features = m.sizes[0], classes = m.sizes.back();
  check(cudaMemset(m.correct.get(), 0, sizeof(int)), "cudaMemset");
  constexpr int kPiece = 4096;  // bounds the activations' memory, whatever the set's size
  m.reserve(std::min(count, kPiece));
  for (int done = 0; done < count; done += kPiece) {
    const int n = std::min(kPiece, count - done), at = first + done;
    const float* logits = m.forward(params, s.x.get() + std::size_t(at) * features, n);
    count_argmax_hits<<<blocks_for(n), kThreads>>>(logits, s.y.get() + at, n, classes, m.correct.get());
    check(cudaGetLastError(), "count_argmax_hits");
  }
  int correct = 0;
  check(cudaMemcpy(&correct, m.correct.get(), sizeof correct, cudaMemcpyDeviceToHost), "count download");
  return correct;
}

std::vector<Chunk> DeviceMlp::layers() const {
  const Impl& m = *impl_;
  std::vector<Chunk> spans;
  for (std::size_t l = 1; l < m.sizes.size(); ++l)
    spans.push_back(
        {m.w_offset[l - 1], m.b_offset[l - 1] + static_cast<std::size_t>(m.sizes[l]) - m.w_offset[l - 1]});
  return spans;
}

// loss_and_gradient above, each layer's parameters and gradient through the hooks (mlp_layers.hpp).
void DeviceMlp::loss_and_gradient_by_layer(int set, int first, int count, const LayerHooks& hooks) {
  Impl& m = *impl_;
  const Impl::Set& s = m.sets.at(static_cast<std::size_t>(set));
  if (count <= 0)
    throw std::invalid_argument("DeviceMlp::loss_and_gradient_by_layer: a batch of " + std::to_string(count));
  m.reserve(count);
  const int features = m.sizes[0];
  gather_examples<<<blocks_for(std::size_t(count) * features), kThreads>>>(
      m.act[0].get(), m.batch_labels.get(), s.x.get(), s.y.get(), s.order.get(), first, count, features);
  check(cudaGetLastError(), "gather_examples");
  const std::size_t layers = m.sizes.size() - 1;
  const float* prev = m.act[0].get();
  for (std::size_t l = 1; l <= layers; ++l) {
    const int layer = static_cast<int>(l);
    const float* w = hooks.params(layer, false);  // [ W_l | b_l ]
    prev = m.forward_layer(l, w, w + static_cast<std::size_t>(m.sizes[l]) * m.sizes[l - 1], prev, count);
    hooks.release(layer, false);
  }
  const int classes = m.sizes.back();
  softmax_cross_entropy<<<blocks_for(count), kThreads>>>(prev, m.batch_labels.get(), m.delta.get(),
                                                         m.row_loss.get(), count, classes);
  check(cudaGetLastError(), "softmax_cross_entropy");
  add_mean_loss<<<1, kThreads>>>(m.row_loss.get(), count, m.loss_sum.get());
  check(cudaGetLastError(), "add_mean_loss");
  for (std::size_t l = layers; l >= 1; --l) {
    const int layer = static_cast<int>(l), in = m.sizes[l - 1], out = m.sizes[l];
    float* g = hooks.grad(layer);  // [ dW_l | db_l ]
    bias_gradient<<<blocks_for(out), kThreads>>>(m.delta.get(), g + static_cast<std::size_t>(out) * in, count,
                                                 out);
    check(cudaGetLastError(), "bias_gradient");
    m.gemm_row_major(true, false, out, in, count, m.delta.get(), out, m.act[l - 1].get(), in, 0.0f, g, in);
    if (l > 1) {  // layer 1 passes nothing down, and so needs no W in backward
      const float* w = hooks.params(layer, true);
      m.gemm_row_major(false, false, count, in, out, m.delta.get(), out, w, in, 0.0f, m.delta_prev.get(), in);
      const std::size_t n = std::size_t(count) * in;
      relu_backward<<<blocks_for(n), kThreads>>>(m.delta_prev.get(), m.act[l - 1].get(), n);
      check(cudaGetLastError(), "relu_backward");
      m.delta.swap(m.delta_prev);
      hooks.release(layer, true);
    }
    hooks.grad_ready(layer);
  }
}

}  // namespace ringlab
