// Built when CUDA was found. Asking the runtime how many GPUs there are is safe without one:
// cudaGetDeviceCount returns an error (no device / no driver), which we read as zero.
#include <cuda_runtime_api.h>

#include "ringlab/device.hpp"

namespace ringlab {
bool built_with_cuda() { return true; }

int cuda_device_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky error so later calls start clean
    return 0;
  }
  return n;
}

std::string device_for_local_rank(int local_rank) {
  const int n = cuda_device_count();
  if (n == 0) return "cpu";
  return "cuda:" + std::to_string(local_rank % n);
}
}  // namespace ringlab
