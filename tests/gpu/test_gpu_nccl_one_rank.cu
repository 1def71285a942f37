// NCCL with one rank, set up the way the kit's nccl transport will be (nccl-tests, llm.c):
// ncclGetUniqueId, ncclCommInitRank(nranks 1, rank 0); then a send to itself and a receive
// from itself in one group (a lone ncclSend would wait for its receive forever), and an
// ncclAllReduce, each checked element by element. No GPU: exit 77 (skipped).
//   nvcc -std=c++17 test_gpu_nccl_one_rank.cu -lnccl -o test_gpu_nccl_one_rank
#include <cuda_runtime.h>
#include <nccl.h>

#include <cstdio>
#include <vector>

#include "gpu_check.hpp"

int main() {
  int ndev = 0;
  if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
    std::printf("SKIP: no CUDA device on this machine\n");
    return 77;
  }
  CHECK_CUDA(cudaSetDevice(0));
  const int n = 1000003;  // odd: no kernel may assume a multiple of anything
  std::vector<float> host(n);
  for (int i = 0; i < n; ++i) host[i] = static_cast<float>(i % 1000) - 500.0f;
  float *a = nullptr, *b = nullptr, *c = nullptr;
  CHECK_CUDA(cudaMalloc(&a, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&b, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&c, n * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(a, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(b, 0, n * sizeof(float)));

  ncclUniqueId id;
  CHECK_NCCL(ncclGetUniqueId(&id));
  ncclComm_t comm;
  CHECK_NCCL(ncclCommInitRank(&comm, 1, id, 0));
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));

  CHECK_NCCL(ncclGroupStart());
  CHECK_NCCL(ncclSend(a, n, ncclFloat, 0, comm, stream));
  CHECK_NCCL(ncclRecv(b, n, ncclFloat, 0, comm, stream));
  CHECK_NCCL(ncclGroupEnd());
  CHECK_NCCL(ncclAllReduce(a, c, n, ncclFloat, ncclSum, comm, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));

  std::vector<float> got_b(n), got_c(n);
  CHECK_CUDA(cudaMemcpy(got_b.data(), b, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(got_c.data(), c, n * sizeof(float), cudaMemcpyDeviceToHost));
  long long wrong_send = 0, wrong_sum = 0;
  for (int i = 0; i < n; ++i) {
    wrong_send += got_b[i] != host[i];
    wrong_sum += got_c[i] != host[i];  // a sum over one rank is the rank's own data
  }
  std::printf("send/recv to self: %lld wrong of %d; allreduce over 1 rank: %lld wrong\n", wrong_send, n,
              wrong_sum);
  CHECK_NCCL(ncclCommDestroy(comm));
  CHECK_CUDA(cudaStreamDestroy(stream));
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  return wrong_send || wrong_sum ? 1 : 0;
}
