// The two NCCL tests' error checks: a failing CUDA or NCCL call prints where and why, and the
// test's main returns 1.
#pragma once
#include <cstdio>

#define CHECK_CUDA(call)                                                                           \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(err_)); \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)
#define CHECK_NCCL(call)                                                                           \
  do {                                                                                             \
    ncclResult_t res_ = (call);                                                                    \
    if (res_ != ncclSuccess) {                                                                     \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call, ncclGetErrorString(res_)); \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)
