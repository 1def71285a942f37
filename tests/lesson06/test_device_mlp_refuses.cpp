// The GPU MLP (mlp_device.hpp) where it cannot run — a kit built without CUDA (the stub,
// mlp_nocuda.cpp) or no GPU visible — is refused with one line that names it, never a crash.
// Where a GPU is visible this has nothing to check (tests/gpu/test_gpu_mlp.cpp checks the MLP).
#include <stdexcept>
#include <string>

#include "catch.hpp"
#include "ringlab/comm/device.hpp"
#include "ringlab/ml/mlp_device.hpp"

TEST_CASE("the GPU MLP where no GPU can run it is one error line, not a crash") {
  if (ringlab::cuda_device_count() > 0) return;
  std::string what;
  try {
    ringlab::DeviceMlp mlp({784, 256, 128, 10});
  } catch (const std::exception& e) {
    what = e.what();
  }
  INFO("the error: " << what);
  CHECK(what.rfind("DeviceMlp: ", 0) == 0);
  CHECK(what.find('\n') == std::string::npos);
  if (!ringlab::built_with_cuda()) CHECK(what.find("built without CUDA") != std::string::npos);
}
