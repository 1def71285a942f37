// One worker's replica of the model, where the communicator keeps its data (--device): on the
// host, the Mlp of mlp.hpp over batches copied out of the training set; on a GPU, the DeviceMlp
// (mlp_device.hpp) with the training and test sets uploaded once and every batch gathered on
// the device. Lessons 06 and 07 train through this, so their loops are the same for both.
//
// Parameters, momentum and gradient are Views in that memory: the distributed optimizer (the
// ring, ringlab::scale, ringlab::sgd_momentum) works on them wherever they are. The host copy
// of the state (TrainingState: for --check, the hash and checkpoints) is brought up to date by
// sync_to_host(), one device-to-host copy, only when one of those needs it.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "shared/checkpoint.hpp"
#include "ringlab/ml/fashion_mnist.hpp"
#include "ringlab/comm/memory.hpp"
#include "ringlab/ml/mlp.hpp"
#include "ringlab/ml/mlp_device.hpp"
#include "ringlab/ringlab.hpp"
#include "shared/training.hpp"

namespace lessons {

class Replica {
 public:
  // `state` holds the starting parameters and momentum (on the host); the replica keeps using
  // it as its host copy.
  Replica(ringlab::Where where, const ringlab::Dataset& train, const ringlab::Dataset& test,
          TrainingState& state)
      : where_(where),
        train_(train),
        test_(test),
        state_(state),
        host_(sizes(train)),
        grad_host_(host_.parameter_count()) {
    if (where_ == ringlab::Where::host) return;
    device_.emplace(sizes(train));
    const std::size_t n = host_.parameter_count();
    for (auto* b : {&params_, &velocity_, &grad_, &whole_grad_}) *b = ringlab::Buffer<float>(n, where_);
    ringlab::copy(params_.view(), View<const float>(state_.params));
    ringlab::copy(velocity_.view(), View<const float>(state_.velocity));
    train_set_ = device_->upload_examples(train.images.data(), train.labels.data(), train.count);
    test_set_ = device_->upload_examples(test.images.data(), test.labels.data(), test.count);
  }

  std::size_t parameter_count() const { return host_.parameter_count(); }
  View<float> params() { return device_ ? params_.view() : View<float>(state_.params); }
  View<float> velocity() { return device_ ? velocity_.view() : View<float>(state_.velocity); }
  View<float> grad() { return device_ ? grad_.view() : View<float>(grad_host_); }

  // The order this epoch visits the training set (on a GPU: uploaded, once per epoch).
  void begin_epoch(const std::vector<int>& order) {
    order_ = &order;
    if (device_) device_->set_order(train_set_, order);
  }

  // This rank's gradient of examples order[first .. first+count) into grad(); the loss is added
  // to the sum take_loss_sum() returns.
  void compute_gradient(int first, int count) {
    if (device_)
      return device_->loss_and_gradient(params_.view().data(), train_set_, first, count, grad_.view().data());
    gather_examples(train_, *order_, first, count, x_, y_);
    loss_sum_ +=
        host_.loss_and_gradient(state_.params.data(), x_.data(), y_.data(), count, grad_host_.data());
  }

  // The sum of the losses since the last call (on a GPU: the one number copied down).
  double take_loss_sum() {
    double sum = loss_sum_;
    loss_sum_ = 0;
    if (device_) sum += device_->take_loss_sum();
    return sum;
  }

  // --check: the one-process gradient of examples order[first .. first+count), into `out` (host).
  // Its loss is not counted in the epoch's.
  void whole_gradient(int first, int count, std::vector<float>& out) {
    out.resize(parameter_count());
    if (!device_) {
      gather_examples(train_, *order_, first, count, x_, y_);
      host_.loss_and_gradient(state_.params.data(), x_.data(), y_.data(), count, out.data());
      return;
    }
    loss_sum_ += device_->take_loss_sum();  // keep the epoch's sum so far, drop this call's loss
    device_->loss_and_gradient(params_.view().data(), train_set_, first, count, whole_grad_.view().data());
    device_->take_loss_sum();
    ringlab::copy(View<float>(out), View<const float>(whole_grad_.view()));
  }

  // The averaged gradient the last step used, on the host (for --check).
  const std::vector<float>& grad_on_host() {
    if (device_) ringlab::copy(View<float>(grad_host_), View<const float>(grad_.view()));
    return grad_host_;
  }

  // Brings the host copy (the TrainingState given at construction) up to date.
  void sync_to_host() {
    if (!device_) return;
    ringlab::copy(View<float>(state_.params), View<const float>(params_.view()));
    ringlab::copy(View<float>(state_.velocity), View<const float>(velocity_.view()));
  }

  // How many of test examples [first, first + count) the model classifies correctly.
  int count_correct(int first, int count) {
    if (device_) return device_->count_correct(params_.view().data(), test_set_, first, count);
    int correct = 0;
    for (int i = 0; i < count; i += 1000) {  // in pieces, as global_accuracy (training.hpp)
      const int n = std::min(1000, count - i), at = first + i;
      correct += host_.count_correct(state_.params.data(), test_.image(at),
                                     &test_.labels[static_cast<std::size_t>(at)], n);
    }
    return correct;
  }

  // Test accuracy of the whole test set: each rank scores its own slice, the counts are summed.
  double global_accuracy(ringlab::Communicator& comm) {
    const ringlab::Chunk mine =
        ringlab::chunk_of(static_cast<std::size_t>(test_.count), comm.size(), comm.rank());
    const long long correct = count_correct(static_cast<int>(mine.offset), static_cast<int>(mine.count));
    return static_cast<double>(comm.sum(correct)) / test_.count;
  }

 private:
  static std::vector<int> sizes(const ringlab::Dataset& train) {
    return {train.features, 256, 128, train.classes};
  }

  ringlab::Where where_;
  const ringlab::Dataset& train_;
  const ringlab::Dataset& test_;
  TrainingState& state_;
  ringlab::Mlp host_;  // on a GPU too: it owns nothing large, and the sizes come from it
  std::optional<ringlab::DeviceMlp> device_;
  ringlab::Buffer<float> params_, velocity_, grad_, whole_grad_;  // on the GPU (device only)
  std::vector<float> grad_host_, x_;
  std::vector<std::uint8_t> y_;
  const std::vector<int>* order_ = nullptr;
  int train_set_ = -1, test_set_ = -1;
  double loss_sum_ = 0;
};

}  // namespace lessons
