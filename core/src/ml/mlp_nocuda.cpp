// Built when the kit has no CUDA: the GPU MLP refuses, in one line that says what to do.
#include <stdexcept>

#include "ringlab/ml/mlp_device.hpp"

namespace ringlab {

struct DeviceMlp::Impl {};

DeviceMlp::DeviceMlp(std::vector<int>) {
  throw std::runtime_error(
      "DeviceMlp: the MLP on a GPU, but this ringlab was built without CUDA (rebuild where nvcc is "
      "installed, or run with --device cpu)");
}
DeviceMlp::~DeviceMlp() = default;
std::size_t DeviceMlp::parameter_count() const { return 0; }
int DeviceMlp::upload_examples(const float*, const std::uint8_t*, int) { return -1; }
void DeviceMlp::set_order(int, const std::vector<int>&) {}
void DeviceMlp::loss_and_gradient(const float*, int, int, int, float*) {}
double DeviceMlp::take_loss_sum() { return 0; }
int DeviceMlp::count_correct(const float*, int, int, int) { return 0; }
std::vector<Chunk> DeviceMlp::layers() const { return {}; }
void DeviceMlp::loss_and_gradient_by_layer(int, int, int, const LayerHooks&) {}

}  // namespace ringlab
