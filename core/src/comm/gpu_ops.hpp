// The real GPU's side of ops.hpp's device_ops: ops_cuda.cu (CUDA kernels and copies) or, built
// without CUDA, ops_nocuda.cpp (each refuses in one line). ops_device.cpp sends every device_ops
// call here, or to the simulated device (sim_device.hpp) when the run asked for --device sim.
// Private to the core: the same signatures as device_ops, plus the trace's read of a buffer.
#pragma once
#include "ringlab/comm/ops.hpp"

namespace ringlab::gpu_ops {
void reduce_sum(DType t, void* dst, const void* a, const void* b, std::size_t n);
void copy(void* dst, const void* src, std::size_t bytes);
void scale(DType t, void* x, const void* factor, std::size_t n);
void fill(DType t, void* x, const void* value, std::size_t n);
void sgd_momentum(float* params, const float* grad, float* velocity, std::size_t n, float lr, float momentum);
void synchronize();
void* allocate(std::size_t bytes);
void release(void* p);
void* allocate_pinned(std::size_t bytes);
void release_pinned(void* p);
void* gpu_mark();
double gpu_mark_us(void* mark);
void read_to_host(void* dst, const void* src, std::size_t bytes);  // trace::detail::read_to_host
}  // namespace ringlab::gpu_ops
