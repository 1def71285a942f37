// On every visible GPU, fill a buffer with (device + 1) * i, allreduce (sum) with NCCL across
// all of them, and check element i equals i * (1 + 2 + ... + ndev). With no GPU: exit 77 (skip).
#include <cuda_runtime.h>
#include <nccl.h>

#include <cstdio>
#include <vector>

#include "gpu_check.hpp"

__global__ void fill(float* x, int n, float scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = scale * i;
}

int main() {
  int ndev = 0;
  if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
    std::printf("SKIP: no CUDA device on this machine\n");
    return 77;
  }
  const int n = 1 << 20;
  std::vector<ncclComm_t> comms(ndev);
  std::vector<int> devs(ndev);
  for (int d = 0; d < ndev; ++d) devs[d] = d;
  CHECK_NCCL(ncclCommInitAll(comms.data(), ndev, devs.data()));
  std::vector<float*> buf(ndev);
  std::vector<cudaStream_t> streams(ndev);
  for (int d = 0; d < ndev; ++d) {
    CHECK_CUDA(cudaSetDevice(d));
    CHECK_CUDA(cudaMalloc(&buf[d], n * sizeof(float)));
    CHECK_CUDA(cudaStreamCreate(&streams[d]));
    fill<<<(n + 255) / 256, 256, 0, streams[d]>>>(buf[d], n, float(d + 1));
    CHECK_CUDA(cudaGetLastError());
  }
  CHECK_NCCL(ncclGroupStart());
  for (int d = 0; d < ndev; ++d)
    CHECK_NCCL(ncclAllReduce(buf[d], buf[d], n, ncclFloat, ncclSum, comms[d], streams[d]));
  CHECK_NCCL(ncclGroupEnd());
  const float factor = ndev * (ndev + 1) / 2.0f;
  long long wrong = 0;
  std::vector<float> host(n);
  for (int d = 0; d < ndev; ++d) {
    CHECK_CUDA(cudaSetDevice(d));
    CHECK_CUDA(cudaStreamSynchronize(streams[d]));
    CHECK_CUDA(cudaMemcpy(host.data(), buf[d], n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i)
      if (host[i] != factor * i) {
        if (wrong < 5) std::fprintf(stderr, "device %d [%d] expected %g got %g\n", d, i, factor * i, host[i]);
        ++wrong;
      }
    cudaFree(buf[d]);
    ncclCommDestroy(comms[d]);
  }
  std::printf("%d devices, %d floats: %lld wrong\n", ndev, n, wrong);
  return wrong ? 1 : 0;
}
