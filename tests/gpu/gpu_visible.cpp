// Exits 0 where this process sees a GPU, else prints one line and exits 77 (ctest: skipped).
// Every GPU test runs it first (ringlab_gpu_test): without a GPU a test then costs one small
// process instead of an mpirun launch that ends in the same skip (about 2 s each, 70-odd tests).
#include <cstdio>

#include "ringlab/comm/device.hpp"

int main() {
  if (ringlab::cuda_device_count() > 0) return 0;
  std::puts("SKIP: no GPU visible");
  return 77;
}
