// The MLP of mlp.hpp on this rank's GPU, the same Model (model.hpp): the same layers, the same flat parameter layout
// ([ W1 | b1 | W2 | b2 | ... ], W row-major), the same loss, so a parameter array moves between
// the two unchanged. GEMMs go through cuBLAS (math mode pinned: no TF32), the rest are small
// kernels in mlp_cuda.cu. Without CUDA built in, constructing one is refused with one line
// (mlp_nocuda.cpp).
//
// What stays on the GPU: the examples (uploaded once), the batch (gathered there from an index
// list), the activations, and the parameters and gradients the caller passes in (device
// pointers: a Buffer<float> with Where::device). Nothing is copied back per step: the losses
// are summed on the GPU, and take_loss_sum() fetches that one number when it is printed.
//
// No CUDA header here: lessons include this, and lessons are never compiled by nvcc.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "ringlab/ml/mlp_layers.hpp"  // LayerwiseModel: a Model, plus the per-layer hooks (lesson 09)
#include "ringlab/ml/model.hpp"

namespace ringlab {

class DeviceMlp : public LayerwiseModel {
 public:
  explicit DeviceMlp(std::vector<int> sizes);  // {784, 256, 128, 10}, as Mlp
  ~DeviceMlp();
  DeviceMlp(const DeviceMlp&) = delete;
  DeviceMlp& operator=(const DeviceMlp&) = delete;

  std::size_t parameter_count() const override;

  // Uploads `count` examples (rows of sizes()[0] floats, one label each) to the GPU, once;
  // returns the id the calls below take (the training set, the test set, a test's batch).
  int upload_examples(const float* x, const std::uint8_t* labels, int count) override;
  // The order in which set `set` is visited: indices into it (one epoch's shuffle), uploaded.
  void set_order(int set, const std::vector<int>& order) override;

  // Examples order[first .. first+count) of `set`, gathered on the GPU: the gradient of their
  // mean softmax cross-entropy with respect to every parameter, into `grad`. `params` and
  // `grad` are device pointers (parameter_count() floats). The mean loss is added to a sum kept
  // on the GPU (see take_loss_sum).
  void loss_and_gradient(const float* params, int set, int first, int count, float* grad) override;
  // The sum of the mean losses of every loss_and_gradient since the last call: one copy down.
  double take_loss_sum() override;

  // How many of examples [first, first + count) of `set` (stored order) the model classifies
  // correctly: arg max of the logits, the first one on ties, as Mlp::count_correct.
  int count_correct(const float* params, int set, int first, int count) override;

  // Lesson 09 (mlp_layers.hpp): each layer's parameters and gradient through hooks, device
  // pointers both. (Compiled, but never run on a GPU yet: see docs/lesson09.md.)
  std::vector<Chunk> layers() const override;
  void loss_and_gradient_by_layer(int set, int first, int count, const LayerHooks& hooks) override;

 private:
  struct Impl;  // the cuBLAS handle and the device arrays (mlp_cuda.cu)
  std::unique_ptr<Impl> impl_;
};

}  // namespace ringlab
