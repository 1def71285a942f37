// One worker's replica of the model, where the communicator keeps its data (--device): on the
// host, the Mlp of mlp.hpp; on a GPU, the DeviceMlp (mlp_device.hpp) with the training and test
// sets uploaded once and every batch gathered on the device; on the simulated GPU (--device sim),
// the Mlp run on the device side of its buffers (model_on_sim_device.hpp). Each is a ringlab::Model
// (model.hpp), so nothing below asks which. Lessons 06 and 07 train through this.
//
// Parameters, momentum and gradient are Views in that memory: the distributed optimizer (the
// ring, ringlab::scale, ringlab::sgd_momentum) works on them wherever they are. The host copy
// of the state (TrainingState: for --check, the hash and checkpoints) is brought up to date by
// sync_to_host(), one copy (from the GPU, or within the host), only when one of those needs it.
#pragma once
#include <memory>
#include <utility>
#include <vector>

#include "shared/checkpoint.hpp"
#include "ringlab/ml/fashion_mnist.hpp"
#include "ringlab/comm/memory.hpp"
#include "ringlab/ml/mlp.hpp"
#include "ringlab/ml/mlp_device.hpp"
#include "ringlab/ml/model_on_sim_device.hpp"
#include "ringlab/ringlab.hpp"
#include "shared/training.hpp"

namespace lessons {

class Replica {
 public:
  // `state` holds the starting parameters and momentum (on the host); the replica keeps using
  // it as its host copy.
  Replica(ringlab::Where where, const ringlab::Dataset& train, const ringlab::Dataset& test,
          TrainingState& state)
      : state_(state), test_count_(test.count) {
    const std::vector<int> sizes{train.features, 256, 128, train.classes};
    if (where == ringlab::Where::host) model_ = std::make_unique<ringlab::Mlp>(sizes);
    else if (ringlab::sim_device::on())  // --device sim: the host model, on the device side of its buffers
      model_ = std::make_unique<ringlab::ModelOnSimDevice>(std::make_unique<ringlab::Mlp>(sizes));
    else model_ = std::make_unique<ringlab::DeviceMlp>(sizes);
    const std::size_t n = model_->parameter_count();
    for (auto* b : {&params_, &velocity_, &grad_, &whole_grad_}) *b = ringlab::Buffer<float>(n, where);
    ringlab::copy(params_.view(), View<const float>(state_.params));
    ringlab::copy(velocity_.view(), View<const float>(state_.velocity));
    train_set_ = model_->upload_examples(train.images.data(), train.labels.data(), train.count);
    test_set_ = model_->upload_examples(test.images.data(), test.labels.data(), test.count);
  }

  std::size_t parameter_count() const { return model_->parameter_count(); }
  View<float> params() { return params_.view(); }
  View<float> velocity() { return velocity_.view(); }
  View<float> grad() { return grad_.view(); }

  // The order this epoch visits the training set (on a GPU: uploaded, once per epoch).
  void begin_epoch(const std::vector<int>& order) { model_->set_order(train_set_, order); }

  // This rank's gradient of examples order[first .. first+count) into grad(); the loss is added
  // to the sum take_loss_sum() returns.
  void compute_gradient(int first, int count) {
    model_->loss_and_gradient(params_.view().data(), train_set_, first, count, grad_.view().data());
  }

  // The sum of the losses since the last call (on a GPU: the one number copied down).
  double take_loss_sum() { return std::exchange(loss_sum_, 0.0) + model_->take_loss_sum(); }

  // --check: the one-process gradient of examples order[first .. first+count), into `out` (host).
  // Its loss is not counted in the epoch's.
  void whole_gradient(int first, int count, std::vector<float>& out) {
    out.resize(parameter_count());
    loss_sum_ += model_->take_loss_sum();  // keep the epoch's sum so far, drop this call's loss
    model_->loss_and_gradient(params_.view().data(), train_set_, first, count, whole_grad_.view().data());
    model_->take_loss_sum();
    ringlab::copy(View<float>(out), View<const float>(whole_grad_.view()));
  }

  // The averaged gradient the last step used, on the host (for --check).
  const std::vector<float>& grad_on_host() {
    grad_host_.resize(parameter_count());
    ringlab::copy(View<float>(grad_host_), View<const float>(grad_.view()));
    return grad_host_;
  }

  // Brings the host copy (the TrainingState given at construction) up to date.
  void sync_to_host() {
    ringlab::copy(View<float>(state_.params), View<const float>(params_.view()));
    ringlab::copy(View<float>(state_.velocity), View<const float>(velocity_.view()));
  }

  // Test accuracy of the whole test set (training.hpp).
  double global_accuracy(ringlab::Communicator& comm) {
    return lessons::global_accuracy(comm, *model_, params_.view().data(), test_set_, test_count_);
  }

 private:
  TrainingState& state_;
  int test_count_;
  std::unique_ptr<ringlab::Model> model_;  // an Mlp on the host, a DeviceMlp on a GPU (above)
  ringlab::Buffer<float> params_, velocity_, grad_, whole_grad_;  // where the model is
  std::vector<float> grad_host_;
  int train_set_ = -1, test_set_ = -1;
  double loss_sum_ = 0;
};

}  // namespace lessons
