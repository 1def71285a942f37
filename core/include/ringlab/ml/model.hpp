// The model as training code sees it, wherever it runs: Mlp (mlp.hpp: the host, BLAS) and
// DeviceMlp (mlp_device.hpp: a GPU, cuBLAS) both are one. Parameters, gradients and examples
// live where the model does (host pointers, or device pointers: a Buffer<float> whose where()
// is the model's), so a training loop written against this never asks where the model is.
// Both share one flat parameter layout ([ W1 | b1 | W2 | b2 | ... ]), so a parameter array
// moves between the two unchanged.
#pragma once
#include <cstdint>
#include <vector>

namespace ringlab {

class Model {
 public:
  virtual ~Model() = default;
  virtual std::size_t parameter_count() const = 0;

  // Hands `count` examples (rows of sizes()[0] floats, one label each) to the model once (a GPU
  // uploads them; the host keeps the pointers: they must outlive the model). Returns the id the
  // calls below take (the training set, the test set).
  virtual int upload_examples(const float* x, const std::uint8_t* labels, int count) = 0;
  // The order in which set `set` is visited: indices into it (one epoch's shuffle).
  virtual void set_order(int set, const std::vector<int>& order) = 0;

  // Examples order[first .. first+count) of `set`: the gradient of their mean softmax
  // cross-entropy with respect to every parameter, into `grad` (parameter_count() floats). The
  // mean loss is added to a running sum (take_loss_sum).
  virtual void loss_and_gradient(const float* params, int set, int first, int count, float* grad) = 0;
  // The sum of the mean losses since the last call (on a GPU: the one number copied down).
  virtual double take_loss_sum() = 0;

  // How many of examples [first, first + count) of `set` (stored order) the model classifies
  // correctly: arg max of the logits, the first one on ties.
  virtual int count_correct(const float* params, int set, int first, int count) = 0;
};

}  // namespace ringlab
