// Built when CUDA was found. Asking the runtime how many GPUs there are is safe without one:
// cudaGetDeviceCount returns an error (no device / no driver), which we read as zero.
#include <cuda_runtime_api.h>

#include <stdexcept>

#include "ringlab/device.hpp"

namespace ringlab {
bool built_with_cuda() { return true; }
bool built_with_nccl() {
#ifdef RINGLAB_HAVE_NCCL
  return true;
#else
  return false;
#endif
}

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

void use_gpu(int index) {
  const cudaError_t err = cudaSetDevice(index);
  if (err != cudaSuccess)
    throw std::runtime_error("cudaSetDevice(" + std::to_string(index) + "): " + cudaGetErrorString(err));
}

GpuInfo gpu_info(int index) {
  GpuInfo g;
  cudaDeviceProp p{};
  if (cudaGetDeviceProperties(&p, index) != cudaSuccess) {
    cudaGetLastError();
    return g;
  }
  g.index = index;
  g.name = p.name;
  char bus[32] = {};
  if (cudaDeviceGetPCIBusId(bus, sizeof bus, index) == cudaSuccess) g.pci_bus_id = bus;
  g.memory_bytes = p.totalGlobalMem;
  return g;
}
}  // namespace ringlab
