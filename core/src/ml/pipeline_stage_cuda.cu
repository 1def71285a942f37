// Lesson 02 — a pipeline stage's arithmetic on a GPU: the loops of pipeline_stage.hpp as CUDA kernels, one
// thread per output element, each adding in the host loop's order. Built by nvcc with
// -fmad=false (this folder's CMakeLists.txt) into lesson02_device, linked by lesson_02 when
// CUDA was found. Everything runs on the default stream, in order with the transports' copies.
//
// The model is small (width x width layers, a batch of a few hundred rows): plain kernels are
// enough to keep a stage's GPU busy for longer than a hand-off takes, which is what the
// pipeline's bubble needs. Lesson 06's MLP is where the GEMMs go through cuBLAS.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "ringlab/ml/pipeline_stage_device.hpp"
#include "ringlab/base/cuda_grid.cuh"

namespace ringlab::pipeline::device {
namespace {

// Grid-stride loops over the output elements, the kit's launch shape (ringlab/cuda_grid.cuh).
using ringlab::cuda_grid::blocks_for;
using ringlab::cuda_grid::check;
using ringlab::cuda_grid::first_index;
using ringlab::cuda_grid::kThreads;
using ringlab::cuda_grid::stride;

// y[r][o] = act(b[o] + sum_i x[r][i] * w[i][o]): element k = r * out + o. Neighbouring threads
// read neighbouring w[i][o] (one row of W at a time) and the same x[r][i].
__global__ void forward_kernel(int in, int out, bool tanh_after, const double* w, const double* b,
                               const double* x, double* y, std::size_t n) {
  for (std::size_t k = first_index(); k < n; k += stride()) {
    const std::size_t r = k / out;
    const int o = static_cast<int>(k % out);
    const double* xr = x + r * in;
    double s = b[o];
    for (int i = 0; i < in; ++i) s += xr[i] * w[static_cast<std::size_t>(i) * out + o];
    y[k] = tanh_after ? tanh(s) : s;
  }
}

// dz = dy * tanh'(z) = dy * (1 - y^2), in place.
__global__ void tanh_backward_kernel(const double* y, double* dy, std::size_t n) {
  for (std::size_t k = first_index(); k < n; k += stride()) dy[k] *= 1.0 - y[k] * y[k];
}

// gb[o] += sum over rows of dz[r][o], rows in order (the host adds row by row).
__global__ void bias_grad_kernel(int out, const double* dz, double* gb, int rows) {
  for (std::size_t o = first_index(); o < static_cast<std::size_t>(out); o += stride()) {
    double g = gb[o];
    for (int r = 0; r < rows; ++r) g += dz[static_cast<std::size_t>(r) * out + o];
    gb[o] = g;
  }
}

// gw[i][o] += sum over rows of x[r][i] * dz[r][o]: element k = i * out + o.
__global__ void weight_grad_kernel(int in, int out, const double* x, const double* dz, double* gw, int rows,
                                   std::size_t n) {
  for (std::size_t k = first_index(); k < n; k += stride()) {
    const std::size_t i = k / out, o = k % out;
    double g = gw[k];
    for (int r = 0; r < rows; ++r)
      g += x[static_cast<std::size_t>(r) * in + i] * dz[static_cast<std::size_t>(r) * out + o];
    gw[k] = g;
  }
}

// dx[r][i] = sum_o w[i][o] * dz[r][o]: element k = r * in + i.
__global__ void input_grad_kernel(int in, int out, const double* w, const double* dz, double* dx,
                                  std::size_t n) {
  for (std::size_t k = first_index(); k < n; k += stride()) {
    const std::size_t r = k / in, i = k % in;
    const double* wi = w + i * out;
    const double* dzr = dz + r * out;
    double s = 0;
    for (int o = 0; o < out; ++o) s += wi[o] * dzr[o];
    dx[k] = s;
  }
}

__global__ void sgd_kernel(double* p, double* g, std::size_t n, double lr) {
  for (std::size_t k = first_index(); k < n; k += stride()) {
    p[k] -= lr * g[k];
    g[k] = 0.0;
  }
}

// One block: each thread sums a strided share, then the block adds the shares pairwise. The
// order is fixed, so the loss is the same from run to run (not the host's order: the check
// compares losses within a tolerance).
__global__ void mse_kernel(const double* out, const double* target, std::size_t n, int batch, double* grad,
                           double* loss) {
  __shared__ double part[kThreads];
  double s = 0;
  for (std::size_t k = threadIdx.x; k < n; k += blockDim.x) {
    const double d = out[k] - target[k];
    s += 0.5 * d * d / batch;
    grad[k] = d / batch;
  }
  part[threadIdx.x] = s;
  __syncthreads();
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) part[threadIdx.x] += part[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) *loss = part[0];
}

}  // namespace

void layer_forward(int in, int out, bool tanh_after, const double* w, const double* b, const double* x,
                   double* y, int rows) {
  const std::size_t n = static_cast<std::size_t>(rows) * out;
  if (n == 0) return;
  forward_kernel<<<blocks_for(n), kThreads>>>(in, out, tanh_after, w, b, x, y, n);
  check(cudaGetLastError(), "lesson 02 forward kernel");
}

void layer_backward(int in, int out, bool tanh_after, const double* w, double* gw, double* gb,
                    const double* x, const double* y, double* dy, double* dx, int rows) {
  const std::size_t outs = static_cast<std::size_t>(rows) * out, ins = static_cast<std::size_t>(rows) * in,
                    weights = static_cast<std::size_t>(in) * out;
  if (rows == 0) return;
  if (tanh_after) tanh_backward_kernel<<<blocks_for(outs), kThreads>>>(y, dy, outs);
  bias_grad_kernel<<<blocks_for(out), kThreads>>>(out, dy, gb, rows);
  weight_grad_kernel<<<blocks_for(weights), kThreads>>>(in, out, x, dy, gw, rows, weights);
  input_grad_kernel<<<blocks_for(ins), kThreads>>>(in, out, w, dy, dx, ins);
  check(cudaGetLastError(), "lesson 02 backward kernels");
}

void sgd_update(double* p, double* g, std::size_t n, double lr) {
  if (n == 0) return;
  sgd_kernel<<<blocks_for(n), kThreads>>>(p, g, n, lr);
  check(cudaGetLastError(), "lesson 02 sgd kernel");
}

double mse_loss(const double* out, const double* target, std::size_t n, int batch, double* grad) {
  // One double on the device for the block's result, allocated once per process (one GPU each).
  static double* loss_on_device = nullptr;
  if (!loss_on_device) check(cudaMalloc(&loss_on_device, sizeof(double)), "cudaMalloc (loss)");
  mse_kernel<<<1, kThreads>>>(out, target, n, batch, grad, loss_on_device);
  check(cudaGetLastError(), "lesson 02 loss kernel");
  double loss = 0;
  check(cudaMemcpy(&loss, loss_on_device, sizeof loss, cudaMemcpyDeviceToHost), "cudaMemcpy (loss)");
  return loss;
}

void copy(void* dst, const void* src, std::size_t bytes) {
  if (bytes == 0 || dst == src) return;
  check(cudaMemcpy(dst, src, bytes, cudaMemcpyDefault), "cudaMemcpy");
}

void synchronize() { check(cudaDeviceSynchronize(), "cudaDeviceSynchronize"); }

}  // namespace ringlab::pipeline::device
