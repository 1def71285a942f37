// The device side of ops.hpp: one small kernel per operation, instantiated for float, double,
// int32 and int64. Compiled by nvcc with -fmad=false (core/CMakeLists.txt): no multiply-add
// is fused, so a device sum is bit for bit the host's sum taken in the same order.
// Everything runs on the default stream, in order with the cudaMemcpy calls of the transports.
#include <cuda_runtime.h>

#include <cstring>

#include "ringlab/base/cuda_grid.cuh"
#include "gpu_ops.hpp"
#include "transport/cuda_side.hpp"

namespace ringlab {
namespace {

// Grid-stride loops: enough blocks to fill the GPU, each thread walks the array.
using cuda_grid::blocks_for;
using cuda_grid::check;
using cuda_grid::first_index;
using cuda_grid::kThreads;
using cuda_grid::stride;

template <class T> __global__ void add_kernel(T* dst, const T* a, const T* b, std::size_t n) {
  for (std::size_t i = first_index(); i < n; i += stride()) dst[i] = a[i] + b[i];
}
template <class T> __global__ void scale_kernel(T* x, T factor, std::size_t n) {
  for (std::size_t i = first_index(); i < n; i += stride()) x[i] = x[i] * factor;
}
// velocity = momentum * velocity + grad; params -= lr * velocity, every operation rounded on
// its own (__fmul_rn, __fadd_rn, __fsub_rn: never contracted into an FMA, whatever the flags).
__global__ void sgd_momentum_kernel(float* params, const float* grad, float* velocity, std::size_t n,
                                    float lr, float momentum) {
  for (std::size_t i = first_index(); i < n; i += stride()) {
    const float v = __fadd_rn(__fmul_rn(momentum, velocity[i]), grad[i]);
    velocity[i] = v;
    params[i] = __fsub_rn(params[i], __fmul_rn(lr, v));
  }
}
template <class T> __global__ void fill_kernel(T* x, T value, std::size_t n) {
  for (std::size_t i = first_index(); i < n; i += stride()) x[i] = value;
}

}  // namespace

namespace gpu_ops {

void reduce_sum(DType t, void* dst, const void* a, const void* b, std::size_t n) {
  if (n == 0) return;
  dispatch(t, [&](auto zero) {
    using T = decltype(zero);
    add_kernel<T><<<blocks_for(n), kThreads>>>(static_cast<T*>(dst), static_cast<const T*>(a),
                                               static_cast<const T*>(b), n);
  });
  check(cudaGetLastError(), "reduce_sum kernel");
}

void copy(void* dst, const void* src, std::size_t bytes) {
  if (bytes == 0 || dst == src) return;
  check(cudaMemcpy(dst, src, bytes, cudaMemcpyDefault), "cudaMemcpy");
}

void scale(DType t, void* x, const void* factor, std::size_t n) {
  if (n == 0) return;
  dispatch(t, [&](auto zero) {
    using T = decltype(zero);
    scale_kernel<T><<<blocks_for(n), kThreads>>>(static_cast<T*>(x), *static_cast<const T*>(factor), n);
  });
  check(cudaGetLastError(), "scale kernel");
}

void fill(DType t, void* x, const void* value, std::size_t n) {
  if (n == 0) return;
  dispatch(t, [&](auto zero) {
    using T = decltype(zero);
    fill_kernel<T><<<blocks_for(n), kThreads>>>(static_cast<T*>(x), *static_cast<const T*>(value), n);
  });
  check(cudaGetLastError(), "fill kernel");
}

void sgd_momentum(float* params, const float* grad, float* velocity, std::size_t n, float lr,
                  float momentum) {
  if (n == 0) return;
  sgd_momentum_kernel<<<blocks_for(n), kThreads>>>(params, grad, velocity, n, lr, momentum);
  check(cudaGetLastError(), "sgd_momentum kernel");
}

void synchronize() { check(cudaDeviceSynchronize(), "cudaDeviceSynchronize"); }

// Every allocation is registered for the ipc transport (transport.hpp), which must know the
// start of the allocation a View lies in, and must not free memory other ranks have open.
void* allocate(std::size_t bytes) {
  if (void* p = ipc::reuse(bytes)) return p;
  void* p = nullptr;
  check(cudaMalloc(&p, bytes), "cudaMalloc");
  ipc::remember(p, bytes);
  return p;
}

void release(void* p) {
  if (!ipc::retire(p)) cudaFree(p);
}

void* allocate_pinned(std::size_t bytes) {
  void* p = nullptr;
  check(cudaMallocHost(&p, bytes), "cudaMallocHost");
  return p;
}

void release_pinned(void* p) { cudaFreeHost(p); }

// The trace clock on the GPU: one reference event, recorded on an idle GPU at a known host
// time; a mark's time is that host time plus cudaEventElapsedTime from the reference.
namespace {
cudaEvent_t g_reference = nullptr;
double g_reference_us = 0;
}  // namespace

void* gpu_mark() {
  if (g_reference == nullptr) {
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize (trace clock)");
    check(cudaEventCreate(&g_reference), "cudaEventCreate");
    check(cudaEventRecord(g_reference, 0), "cudaEventRecord");
    check(cudaEventSynchronize(g_reference), "cudaEventSynchronize");
    g_reference_us = trace::now_us();
  }
  cudaEvent_t e;
  check(cudaEventCreate(&e), "cudaEventCreate");
  check(cudaEventRecord(e, 0), "cudaEventRecord");
  return e;
}

double gpu_mark_us(void* mark) {
  auto e = static_cast<cudaEvent_t>(mark);
  check(cudaEventSynchronize(e), "cudaEventSynchronize");
  float ms = 0;
  check(cudaEventElapsedTime(&ms, g_reference, e), "cudaEventElapsedTime");
  cudaEventDestroy(e);
  return g_reference_us + 1000.0 * ms;
}

}  // namespace gpu_ops

namespace gpu_ops {
// Device memory is copied down; host memory (and memory CUDA does not know) is read in place.
void read_to_host(void* dst, const void* src, std::size_t bytes) {
  if (bytes == 0) return;
  cudaPointerAttributes attr{};
  if (cudaPointerGetAttributes(&attr, src) == cudaSuccess && attr.type == cudaMemoryTypeDevice) {
    check(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy (trace values)");
  } else {
    cudaGetLastError();  // clear the error a plain host pointer may leave
    std::memcpy(dst, src, bytes);
  }
}
}  // namespace gpu_ops

}  // namespace ringlab
