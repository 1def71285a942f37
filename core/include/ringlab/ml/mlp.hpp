// A small multi-layer perceptron for the data-parallel lessons: fully connected layers with
// ReLU between them and softmax cross-entropy at the end, e.g. 784-256-128-10. The matrix
// products go through BLAS (cblas_sgemm, one thread per rank): the lessons are about how the
// training is distributed, not about how a GEMM is written.
//
// All parameters live in ONE flat float array, layer after layer, W (out x in, row-major) then
// b (out). One array means one allreduce per step averages every gradient at once:
//   [ W1 | b1 | W2 | b2 | W3 | b3 ]
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "ringlab/ml/mlp_layers.hpp"  // LayerwiseModel: a Model, plus the per-layer hooks (lesson 09)
#include "ringlab/ml/model.hpp"

namespace ringlab {

class Mlp : public LayerwiseModel {
 public:
  // `split_floats` > 0: a weight gradient with more elements than that is computed and handed out
  // in blocks of whole rows of at most split_floats elements, each block a tensor of its own (the
  // last rows first), so that averaging its first blocks can start while backward computes the
  // rest (lesson 08). 0: one tensor per W and per b.
  explicit Mlp(std::vector<int> sizes, std::size_t split_floats = 0);  // {784, 256, 128, 10}

  const std::vector<int>& sizes() const { return sizes_; }
  std::size_t parameter_count() const override { return count_; }

  // He-normal weights (std dev sqrt(2/in)) and zero biases, from `seed`.
  std::vector<float> initial_parameters(std::uint64_t seed) const;

  // One parameter tensor: layer l's W (or a block of its rows) or b, a contiguous slice of the
  // flat parameter array.
  struct Tensor {
    int layer;           // 1 = the first layer (784 -> ...)
    bool is_weight;      // W (out x in) or b (out)
    std::size_t offset;  // in floats, into the flat array
    std::size_t count;
    int first_row = 0, rows = 0;  // W: its rows [first_row, first_row + rows) (all of W unless split)
    bool block = false;           // W split into blocks of rows: this is one of them
  };
  // Every tensor in memory order: W1, b1, W2, b2, ... (W1's blocks, first rows first, b1, ...)
  const std::vector<Tensor>& tensors() const { return tensors_; }

  // The mean softmax cross-entropy over `batch` examples (rows of `x`), and its gradient with
  // respect to every parameter, written to `grad` (parameter_count() floats).
  // `ready(t)`, if given, is called (t an index into tensors()) the moment tensor t's gradient is
  // final, while the backward pass goes on to the layers below: b_L, W_L, b_L-1, W_L-1, ..., b1, W1
  // (the reverse of their order in memory; a split W's blocks from its last rows to its first) — the
  // hook DDP and Horovod use to start averaging early (lesson 08). Traced as compute blocks
  // "forward" and "backward" (one per layer, index = layer) when tracing is on.
  float loss_and_gradient(const float* params, const float* x, const std::uint8_t* labels, int batch,
                          float* grad, const std::function<void(int tensor)>& ready = nullptr);

  // How many of the `batch` examples the model classifies correctly (arg max of the logits).
  int count_correct(const float* params, const float* x, const std::uint8_t* labels, int batch);

  // The Model interface (model.hpp), on the host: the sets are the caller's arrays, and each
  // batch is copied out of them into one block for the GEMMs.
  int upload_examples(const float* x, const std::uint8_t* labels, int count) override;
  void set_order(int set, const std::vector<int>& order) override;
  void loss_and_gradient(const float* params, int set, int first, int count, float* grad) override {
    loss_and_gradient(params, set, first, count, grad, nullptr);
  }
  // The same, calling `ready` as the pointer version above does (lesson 08).
  void loss_and_gradient(const float* params, int set, int first, int count, float* grad,
                         const std::function<void(int tensor)>& ready);
  double take_loss_sum() override;
  int count_correct(const float* params, int set, int first, int count) override;

  // Lesson 09 (mlp_layers.hpp): each layer's parameters and gradient through hooks.
  std::vector<Chunk> layers() const override;
  void loss_and_gradient_by_layer(int set, int first, int count, const LayerHooks& hooks) override;

 private:
  void forward(const float* params, const float* x, int batch);
  // The pieces both passes share, layer l = 1..L: act_[l] from act_[l-1]; delta_ from the
  // logits (returns the summed loss); db_l; delta_ passed down through W_l and the ReLU.
  void forward_layer(std::size_t l, const float* w, const float* b, int batch);
  double softmax_delta(const std::uint8_t* labels, int batch);
  void bias_gradient(std::size_t l, float* db, int batch);
  void propagate(std::size_t l, const float* w, int batch);
  void gather_batch(int set, int first, int count);  // order[first..first+count) into batch_x_, batch_y_
  std::vector<int> sizes_;
  std::vector<std::size_t> w_offset_, b_offset_;
  std::vector<int> b_tensor_, w_first_tensor_;  // per layer: b's index in tensors_, W's first block's
  std::vector<Tensor> tensors_;
  std::size_t count_ = 0;
  std::vector<std::vector<float>> act_;    // act_[0] = input, act_[l] = output of layer l (post-ReLU)
  std::vector<float> delta_, delta_prev_;  // gradients flowing back through the layers
  struct Set {
    const float* x;
    const std::uint8_t* labels;
    int count;
    std::vector<int> order;
  };
  std::vector<Set> sets_;
  std::vector<float> batch_x_;
  std::vector<std::uint8_t> batch_y_;
  double loss_sum_ = 0;
};

// FNV-1a over the bytes of a float array: equal hashes <=> (almost surely) bit-identical arrays.
std::uint64_t hash_floats(const float* data, std::size_t count, std::uint64_t h = 1469598103934665603ull);

}  // namespace ringlab
