// A model whose passes ask for each layer's parameters just before they use them, and hand each
// layer's gradient out the moment it is final: what sharded training needs (lesson 09). Mlp
// (mlp.hpp, the host) and DeviceMlp (mlp_device.hpp, a GPU) both are one.
//
// Lesson 06 hands the model one flat array, [ W1 | b1 | W2 | b2 | ... ], and every rank holds
// all of it. With ZeRO stage 3 / FSDP no rank holds the whole array: each keeps a shard, and a
// layer's parameters are gathered from every rank just before the layer runs, then dropped
// again. The hooks below are where that happens:
//
//   forward:   params(1,fwd) release(1,fwd)  params(2,fwd) release(2,fwd) ... params(L,fwd) release(L,fwd)
//   backward:  grad(L) params(L,bwd) release(L,bwd) grad_ready(L)  ...  grad(1) grad_ready(1)
//
// A layer's parameters and its gradient have one shape: [ W_l | b_l ], W out x in, row-major,
// then b, exactly the layer's slice of the flat array (layers() says where that slice is).
// Backward asks for a layer's parameters only where it reads them: computing the gradient
// that flows to the layer below needs W_l, so layer 1's backward (nothing below it) asks for none.
#pragma once
#include <functional>
#include <vector>

#include "ringlab/base/chunks.hpp"
#include "ringlab/ml/model.hpp"

namespace ringlab {

struct LayerHooks {
  // Where layer l's [ W_l | b_l ] are now (device pointers for a DeviceMlp), valid until
  // release(l, backward). Layers are numbered 1..L.
  std::function<const float*(int layer, bool backward)> params;
  // The pass is done reading layer l's parameters: their memory may be reused.
  std::function<void(int layer, bool backward)> release;
  // Where layer l's gradient [ dW_l | db_l ] is to be written; asked just before backward computes it.
  std::function<float*(int layer)> grad;
  // Layer l's gradient is final (backward goes on to the layers below).
  std::function<void(int layer)> grad_ready;
};

class LayerwiseModel : public Model {
 public:
  // Each layer's [ W_l | b_l ] as a slice of the flat parameter array, layers 1..L in order.
  virtual std::vector<Chunk> layers() const = 0;
  // loss_and_gradient (model.hpp) with the parameters and gradients reached through `hooks`:
  // the same arithmetic, the same result bit for bit, as the flat version given the same numbers.
  virtual void loss_and_gradient_by_layer(int set, int first, int count, const LayerHooks& hooks) = 0;
};

}  // namespace ringlab
