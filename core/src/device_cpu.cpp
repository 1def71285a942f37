// Built when the kit has no CUDA: every rank computes on the CPU.
#include "ringlab/device.hpp"

namespace ringlab {
bool built_with_cuda() { return false; }
int cuda_device_count() { return 0; }
std::string device_for_local_rank(int) { return "cpu"; }
}  // namespace ringlab
