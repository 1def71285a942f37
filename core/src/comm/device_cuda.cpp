// Built when CUDA was found. Asking the runtime how many GPUs there are is safe without one:
// cudaGetDeviceCount returns an error (no device / no driver), which we read as zero.
#include <cuda_runtime_api.h>

#include <stdexcept>

#include "ringlab/comm/device.hpp"

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

std::string why_no_gpu() {
  int n = 0, driver = 0;
  const cudaError_t err = cudaGetDeviceCount(&n);
  cudaGetLastError();
  if (err == cudaSuccess && n > 0) return "";
  cudaDriverGetVersion(&driver);  // 0 when there is no driver at all
  if (driver == 0) return "no GPU here (no NVIDIA driver)";
  if (err == cudaErrorInsufficientDriver) {
    return "the NVIDIA driver (CUDA " + std::to_string(driver / 1000) + "." + std::to_string(driver % 1000 / 10) +
           ") is older than this ringlab's CUDA " + std::to_string(CUDART_VERSION / 1000) +
           " needs (driver 580 or newer): update the driver";
  }
  if (err == cudaErrorNoDevice || err == cudaSuccess) return "no GPU visible (CUDA_VISIBLE_DEVICES, or none here)";
  return std::string("no GPU usable: ") + cudaGetErrorString(err);
}

std::string device_for_local_rank(int local_rank) {
  const int n = cuda_device_count();
  return n == 0 ? "cpu" : "cuda:" + std::to_string(local_rank % n);
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
