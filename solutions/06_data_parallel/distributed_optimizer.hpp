// Lesson 06 — data parallelism: the distributed optimizer.
//
// Every rank holds the WHOLE model. Each global batch is cut into disjoint per-rank parts; each
// rank computes the gradient of the mean loss over its own part; the gradients are averaged
// with the ring allreduce of lesson 05; then every rank takes the same optimizer step, so the
// replicas stay identical, bit for bit. That is Horovod's DistributedOptimizer:
//
//   global batch (B examples)     rank 0          rank 1          rank 2
//   [ e0 .. e(b-1) | eb .. | .. ]  ->  part 0  ->  g0   part 1 -> g1   part 2 -> g2
//                                        \______________|_______________/
//                                          ring allreduce: g0 + g1 + g2
//                                        every rank: g = (g0 + g1 + g2) / 3
//                                        every rank: the same SGD step with g
//
// Why divide by the world size: each g_r is a MEAN over b = B/n examples, so their average
// is the mean over all B examples — exactly the gradient one process would get from the
// whole global batch (the lesson's --check verifies this, and that the replicas agree).
//
// Before the first step the replicas must start equal: rank 0's initial parameters (and, on
// --resume, its optimizer state) are broadcast to every rank.
#pragma once
#include <cstdint>
#include <vector>

#include "ring_allreduce.hpp"
#include "ringlab/ringlab.hpp"

namespace lesson06 {
using ringlab::View;

// ---- broadcast: rank `root`'s buffer to every rank -------------------------------------
// The simplest broadcast: the root sends the whole buffer to each other rank in turn (n-1
// sends from the root; lesson 03 shows faster shapes). Used once at start-up, so simple wins.
template <class T> void broadcast(ringlab::Communicator& comm, View<T> buf, int root = 0) {
  ringlab::trace::Collective tc("broadcast", buf.data(), buf.size());
  for (int dst = 0, s = 0; dst < comm.size(); ++dst) {
    if (dst == root) continue;
    tc.at("broadcast", s++);
    if (comm.rank() == root) comm.send(buf, dst);
    else if (comm.rank() == dst) comm.recv(buf, root);
  }
  tc.end(buf.data(), buf.size());
}

// ---- which examples of the global batch are mine ---------------------------------------
// The global batch of B examples is cut into n equal, disjoint, contiguous parts; rank r takes
// examples [r*B/n, (r+1)*B/n). The caller has checked that n divides B.
struct Part {
  int offset, count;
};
inline Part my_part(int global_batch, int rank, int size) {
  const int b = global_batch / size;
  return {rank * b, b};
}

// ---- averaging the gradients -------------------------------------------------------------
// Sum every rank's gradient with the ring allreduce (in place), then divide by the number of
// ranks: the mean over ranks of per-rank mean gradients = the mean over the global batch.
inline void average_gradients(ringlab::Communicator& comm, View<float> grad) {
  lesson05::ring_allreduce<float>(comm, grad, grad);
  const float inv = 1.0f / static_cast<float>(comm.size());
  for (float& g : grad) g *= inv;
}

// ---- the optimizer: SGD with momentum ---------------------------------------------------
// velocity = momentum * velocity + grad;  params -= lr * velocity   (PyTorch's form).
// Every rank runs this on identical inputs, so every rank gets identical results.
inline void sgd_momentum_update(View<float> params, View<const float> grad, View<float> velocity, float lr,
                                float momentum) {
  for (std::size_t i = 0; i < params.size(); ++i) {
    velocity[i] = momentum * velocity[i] + grad[i];
    params[i] -= lr * velocity[i];
  }
}

// ---- the distributed optimizer's step --------------------------------------------------
// What wraps the plain optimizer: allreduce-average the gradients, then step. `grad` holds this
// rank's gradient on entry and the averaged gradient on return.
inline void distributed_optimizer_step(ringlab::Communicator& comm, View<float> params, View<float> grad,
                                       View<float> velocity, float lr, float momentum) {
  average_gradients(comm, grad);
  sgd_momentum_update(params, grad, velocity, lr, momentum);
}

}  // namespace lesson06
