// Built when the kit has no CUDA: every rank computes on the CPU.
#include <stdexcept>

#include "ringlab/comm/device.hpp"

namespace ringlab {
bool built_with_cuda() { return false; }
int cuda_device_count() { return 0; }
std::string why_no_gpu() { return "this ringlab was built without CUDA"; }
std::string device_for_local_rank(int) { return "cpu"; }
void use_gpu(int) { throw std::runtime_error("--device cuda: this ringlab was built without CUDA"); }
GpuInfo gpu_info(int) { return {}; }
}  // namespace ringlab
