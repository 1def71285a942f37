// The launch shape of every kernel in the kit (core/src/comm/ops_cuda.cu, core/src/ml/mlp_cuda.cu,
// lessons/02_model_parallel/mlp_cuda.cu): a grid-stride loop over the elements, blocks of
// kThreads threads, enough blocks to fill the GPU (capped: each thread then walks the array);
// and a CUDA error turned into an exception that says which call failed.
// For .cu files only: lesson and exercise code never includes a CUDA header.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <string>

namespace ringlab::cuda_grid {

constexpr int kThreads = 256;

inline unsigned blocks_for(std::size_t n) {
  const std::size_t b = (n + kThreads - 1) / kThreads;
  return static_cast<unsigned>(b < 65535 ? b : 65535);
}

// for (std::size_t i = first_index(); i < n; i += stride()) — this thread's elements.
__device__ inline std::size_t first_index() { return blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; }
__device__ inline std::size_t stride() { return std::size_t(gridDim.x) * blockDim.x; }

inline void check(cudaError_t err, const char* what) {
  if (err != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(err));
}

}  // namespace ringlab::cuda_grid
