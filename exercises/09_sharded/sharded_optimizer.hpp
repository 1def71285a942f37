// Lesson 09 — sharded data parallelism: ZeRO stages 0 to 3 (stage 3 is PyTorch's FSDP).
//
// Lesson 06's data parallelism keeps the WHOLE training state on every rank: the parameters,
// the gradient and the optimizer's momentum, 4 bytes each per parameter: 12Ψ bytes for Ψ
// parameters, the same 12Ψ on every one of the N ranks. ZeRO (DeepSpeed) notices that each
// rank needs only 1/N of the optimizer's work, and so only 1/N of what that work reads:
//
//   stage  what each rank keeps whole          what it keeps 1/N of        model state per rank
//   0      params  grad  momentum              -                           12Ψ       (lesson 06)
//   1      params  grad                        momentum                    8Ψ + 4Ψ/N
//   2      params                              grad  momentum              4Ψ + 8Ψ/N
//   3      -                                   params  grad  momentum      12Ψ/N     (FSDP)
//
// The tools are the ring's two halves (ringlab/comm/collectives.hpp): reduce_scatter leaves on
// rank r the sum of only its chunk r; allgather gives every rank every rank's chunk. Two ranks,
// a buffer of two chunks, after reduce_scatter and after allgather:
//
//             chunk 0              chunk 1
//   rank 0    g0 + g1 (mine)       (partial sums)       update chunk 0 of params, momentum chunk 0
//   rank 1    (partial sums)       g0 + g1 (mine)       update chunk 1 of params, momentum chunk 1
//   allgather params: both ranks hold chunk 0 from rank 0 and chunk 1 from rank 1
//
// A reduce-scatter and an allgather move exactly what one allreduce moves (it IS one, cut in
// two), so stage 1 saves memory for free. Stage 2 reduce-scatters each layer's gradient the
// moment backward finishes it and keeps only its chunk. Stage 3 keeps only a chunk of each
// layer's parameters too, and allgathers a layer's [W|b] just before its forward, and again
// before its backward, into one working buffer that the next layer's gather reuses: one more
// allgather per layer per pass is what stage 3 pays for its memory.
#pragma once
#include <algorithm>
#include <vector>

#include "distributed_optimizer.hpp"  // lesson 06: stage 0 is its step
#include "ringlab/comm/collectives.hpp"
#include "ringlab/ml/mlp_layers.hpp"
#include "ringlab/ringlab.hpp"

namespace lesson09 {
using ringlab::Buffer;
using ringlab::Chunk;
using ringlab::Communicator;
using ringlab::View;

// ---- stage 1: reduce-scatter, update my shard, allgather --------------------------------
// `grad` holds this rank's gradient (the whole of it); `params` the whole model, identical on
// every rank; `velocity` only this rank's shard of the momentum: owned_chunk(params.size(), n, r).
// On return params is the whole model after the step, identical on every rank again.
inline void stage1_step(Communicator& comm, View<float> params, View<float> grad, View<float> velocity,
                        float lr, float momentum) {
  // ==== BEGIN EXERCISE: stage1 ====
  // TODO(exercise): goal: on return, `params` holds on every rank the whole model after one SGD-
  // with-momentum step with the MEAN of every rank's gradient — exactly what lesson 06's step
  // gives (the check compares with it, bit for bit on 2 ranks) — while this rank's momentum
  // exists only for its own chunk: `velocity` is owned_chunk(params.size(), n, rank) long.
  // Invariant: a rank updates only the chunk it owns, and only after that chunk of `grad` holds
  // the sum over all ranks; every other chunk of `params` it gets from its owner. The ring's two
  // halves are in ringlab/comm/collectives.hpp; the step on a chunk is ringlab::sgd_momentum
  // (ops.hpp), which, like ringlab::scale, works on host or GPU memory. Stuck? ./ringlab hint 09
  (void)comm, (void)params, (void)grad;  // TODO(exercise): delete these two lines
  (void)velocity, (void)lr, (void)momentum;
  // ==== END EXERCISE ====
}

// ---- the shards of stages 2 and 3 ---------------------------------------------------------
// Stages 2 and 3 shard layer by layer: each layer's [W_l | b_l] is cut into N chunks as the
// ring cuts a buffer, and rank r keeps chunk r of every layer, one after the other:
//   rank r's shard = [ chunk r of layer 1 | chunk r of layer 2 | ... ]
struct Shards {
  std::vector<Chunk> layers;    // each layer's slice of the flat array
  std::vector<Chunk> mine;      // per layer: my chunk of it, offset within the layer
  std::vector<std::size_t> at;  // per layer: where my chunk starts in my shard
  std::size_t size = 0;         // elements in my shard
  std::size_t largest = 0;      // elements in the largest layer

  Shards(std::vector<Chunk> spans, int n, int r) : layers(std::move(spans)) {
    for (const Chunk& l : layers) {
      mine.push_back(ringlab::owned_chunk(l.count, n, r));
      at.push_back(size);
      size += mine.back().count;
      largest = std::max(largest, l.count);
    }
  }
  // Layer l's (1..L) part of a shard-sized view.
  template <class T> View<T> part(View<T> shard, int l) const {
    return shard.sub(at[l - 1], mine[l - 1].count);
  }
};

// What a stage keeps, in bytes, read from the sizes of the buffers it allocated.
struct Held {
  std::size_t params = 0, grads = 0, optimizer = 0, working = 0;
  std::size_t model_state() const { return params + grads + optimizer; }
};

// ---- one rank's training state, at any stage ----------------------------------------------
// Allocates what its stage keeps and nothing more (in the communicator's memory: host, or the
// GPU with --device cuda), and takes one optimizer step at a time.
class ShardedState {
 public:
  // `initial`: the whole initial model on the host (every rank draws the same one).
  ShardedState(Communicator& comm, ringlab::LayerwiseModel& model, int stage,
               const std::vector<float>& initial)
      : comm_(comm),
        model_(model),
        stage_(stage),
        n_(comm.size()),
        shards_(model.layers(), comm.size(), comm.rank()) {
    const std::size_t all = model.parameter_count(), shard = shards_.size;
    const std::size_t mine = ringlab::owned_chunk(all, n_, comm.rank()).count;  // stage 1's shard
    const ringlab::Where where = comm.where();
    params_ = Buffer<float>(stage_ == 3 ? shard : all, where);
    grad_ = Buffer<float>(stage_ <= 1 ? all : shard, where);
    velocity_ = Buffer<float>(stage_ == 0 ? all : stage_ == 1 ? mine : shard, where);
    if (stage_ >= 2) layer_grad_ = Buffer<float>(shards_.largest, where);    // one layer's gradient
    if (stage_ == 3) layer_params_ = Buffer<float>(shards_.largest, where);  // one layer's [W|b]
    ringlab::fill(velocity_.view(), 0.0f);
    if (stage_ < 3) {
      ringlab::copy(params_.view(), View<const float>(initial));
    } else {
      for (std::size_t l = 1; l <= shards_.layers.size(); ++l) {
        const Chunk& c = shards_.mine[l - 1];
        ringlab::copy(shards_.part(params_.view(), static_cast<int>(l)),
                      View<const float>(initial).sub(shards_.layers[l - 1].offset + c.offset, c.count));
      }
    }
  }

  int stage() const { return stage_; }
  const Shards& shards() const { return shards_; }
  Held held() const {
    auto bytes = [](const Buffer<float>& b) { return b.size() * sizeof(float); };
    return {bytes(params_), bytes(grad_), bytes(velocity_), bytes(layer_grad_) + bytes(layer_params_)};
  }
  // The whole of the parameters, the (averaged) gradient of the last step, or the momentum,
  // gathered from the shards into `whole` (parameter_count() elements, the same memory): for the
  // check and for scoring the test set, not part of a training step. Collective.
  enum class What { params, grad, velocity };
  void gather(What what, View<float> whole) {
    View<float> v = what == What::params ? params() : what == What::grad ? grad() : velocity();
    const bool by_layer = what == What::params ? stage_ == 3 : stage_ >= 2;
    if (v.size() == whole.size() && !(what == What::grad && stage_ == 1)) {
      ringlab::copy(whole, View<const float>(v));  // kept whole (or one rank: its shard is all)
    } else if (!by_layer) {  // stage 1: chunk r of the whole array (grad: the rest is partial sums)
      const Chunk c = ringlab::owned_chunk(whole.size(), n_, comm_.rank());
      ringlab::allgather(comm_, View<const float>(what == What::grad ? v.sub(c.offset, c.count) : v), whole);
    } else {
      for (int l = 1; l <= static_cast<int>(shards_.layers.size()); ++l)
        ringlab::allgather(comm_, View<const float>(shards_.part(v, l)),
                           whole.sub(shards_.layers[l - 1].offset, shards_.layers[l - 1].count));
    }
  }

  View<float> params() { return params_.view(); }  // stage 3: this rank's shard only
  View<float> grad() { return grad_.view(); }      // stages 2 and 3: this rank's shard only
  View<float> velocity() { return velocity_.view(); }

  // One step on examples order[first, first + count) of `set` (this rank's part of the batch).
  void step(int set, int first, int count, float lr, float momentum) {
    if (stage_ <= 1) {
      model_.loss_and_gradient(params_.view().data(), set, first, count, grad_.view().data());
      if (stage_ == 0)
        lesson06::distributed_optimizer_step(comm_, params(), grad(), velocity(), lr, momentum);
      else stage1_step(comm_, params(), grad(), velocity(), lr, momentum);
      return;
    }
    // Stages 2 and 3: the gradient is reduce-scattered layer by layer during backward (hooks below).
    model_.loss_and_gradient_by_layer(set, first, count, hooks_);
    ringlab::scale(grad(), 1.0f / static_cast<float>(n_));  // my shard of the summed gradient -> the mean
    const int layers = static_cast<int>(shards_.layers.size());
    for (int l = 1; l <= layers; ++l) {
      // Stage 2 keeps the whole model, so its shard of layer l sits in the middle of params_.
      const Chunk& c = shards_.mine[l - 1];
      View<float> p = stage_ == 3 ? shards_.part(params(), l) : whole_layer(l).sub(c.offset, c.count);
      ringlab::sgd_momentum(p, shards_.part(grad(), l), shards_.part(velocity(), l), lr, momentum);
      if (stage_ == 2) ringlab::allgather(comm_, whole_layer(l));  // everyone's updated chunk of layer l
    }
  }

 private:
  View<float> whole_layer(int l) {  // stage 2: layer l's slice of the whole model
    return params_.view().sub(shards_.layers[l - 1].offset, shards_.layers[l - 1].count);
  }
  // The model asks for each layer's parameters just before it reads them, and hands each layer's
  // gradient over the moment it is final (ringlab/ml/mlp_layers.hpp).
  ringlab::LayerHooks hooks_{
      // Stage 2: the whole model is here. Stage 3: gather layer l from every rank's chunk.
      [this](int l, bool /*backward*/) -> const float* {
        if (stage_ == 2) return whole_layer(l).data();
        View<float> layer = layer_params_.view().sub(0, shards_.layers[l - 1].count);
        ringlab::allgather(comm_, View<const float>(shards_.part(params(), l)), layer);
        return layer.data();
      },
      // Stage 3 "frees" the gathered layer: the next layer's gather overwrites the same buffer
      // (FSDP hands it back to the allocator: the same peak, one layer's worth).
      [](int, bool) {}, [this](int) { return layer_grad_.view().data(); },
      // Layer l's gradient is final: sum it over the ranks, keep only my chunk of the sum.
      [this](int l) {
        View<float> g = layer_grad_.view().sub(0, shards_.layers[l - 1].count);
        ringlab::reduce_scatter(comm_, View<const float>(g), g);
        const Chunk& c = shards_.mine[l - 1];
        ringlab::copy(shards_.part(grad(), l), View<const float>(g.sub(c.offset, c.count)));
      }};

  Communicator& comm_;
  ringlab::LayerwiseModel& model_;
  int stage_, n_;
  Shards shards_;
  Buffer<float> params_, grad_, velocity_;   // the model state: whole or a shard, by stage
  Buffer<float> layer_grad_, layer_params_;  // working buffers: one layer each
};

}  // namespace lesson09
