// The two NCCL tests' error checks: a failing CUDA or NCCL call prints where and why, and the
// test's main returns 1.
#pragma once
#include <cstdio>

// `call` returns a status; anything but `success` is described by `describe(status)`.
#define CHECK_STATUS(call, success, describe)                                               \
  do {                                                                                      \
    const auto status_ = (call);                                                            \
    if (status_ != success) {                                                               \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call, describe(status_)); \
      return 1;                                                                             \
    }                                                                                       \
  } while (0)
#define CHECK_CUDA(call) CHECK_STATUS(call, cudaSuccess, cudaGetErrorString)
#define CHECK_NCCL(call) CHECK_STATUS(call, ncclSuccess, ncclGetErrorString)
