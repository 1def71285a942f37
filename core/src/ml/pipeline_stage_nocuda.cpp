// Lesson 02 built without CUDA: the device side of pipeline_stage.hpp refuses in one line (--device cuda
// already stops with exit 77 before any layer is built, so this is never reached in a run).
#include <stdexcept>
#include <string>

#include "ringlab/ml/pipeline_stage_device.hpp"

namespace ringlab::pipeline::device {
namespace {
[[noreturn]] void refuse(const char* what) {
  throw std::runtime_error(std::string("lesson 02 ") + what +
                           ": a GPU buffer, but this ringlab was built without CUDA (run with --device cpu)");
}
}  // namespace

void layer_forward(int, int, bool, const double*, const double*, const double*, double*, int) {
  refuse("layer_forward");
}
void layer_backward(int, int, bool, const double*, double*, double*, const double*, const double*, double*,
                    double*, int) {
  refuse("layer_backward");
}
void sgd_update(double*, double*, std::size_t, double) { refuse("sgd_update"); }
double mse_loss(const double*, const double*, std::size_t, int, double*) { refuse("mse_loss"); }
void copy(void*, const void*, std::size_t) { refuse("copy"); }
void synchronize() {}

}  // namespace ringlab::pipeline::device
