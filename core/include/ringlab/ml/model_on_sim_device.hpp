// A host model run by the simulated GPU (--device sim, ringlab/comm/sim_device.hpp). On a GPU
// the model's kernels take device pointers; on the simulated one, its parameters and gradient are
// device buffers that host code cannot touch, so this hands the host model (Mlp) their device
// side, as the simulated device does for every op. The examples stay host arrays, as a GPU model
// is handed them to upload. So a device replica trains on the simulated GPU exactly as on the host.
#pragma once
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "ringlab/comm/sim_device.hpp"
#include "ringlab/ml/model.hpp"

namespace ringlab {

class ModelOnSimDevice : public Model {
 public:
  explicit ModelOnSimDevice(std::unique_ptr<Model> host) : host_(std::move(host)) {}
  std::size_t parameter_count() const override { return host_->parameter_count(); }
  int upload_examples(const float* x, const std::uint8_t* labels, int count) override {
    return host_->upload_examples(x, labels, count);
  }
  void set_order(int set, const std::vector<int>& order) override { host_->set_order(set, order); }
  void loss_and_gradient(const float* params, int set, int first, int count, float* grad) override {
    host_->loss_and_gradient(side(params), set, first, count, side(grad));
  }
  double take_loss_sum() override { return host_->take_loss_sum(); }
  int count_correct(const float* params, int set, int first, int count) override {
    return host_->count_correct(side(params), set, first, count);
  }

 private:
  static const float* side(const float* p) { return static_cast<const float*>(sim_device::device_side(p)); }
  static float* side(float* p) { return static_cast<float*>(sim_device::device_side(static_cast<void*>(p))); }
  std::unique_ptr<Model> host_;
};

}  // namespace ringlab
