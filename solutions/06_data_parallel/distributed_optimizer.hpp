// Lesson 06 — data parallelism: the distributed optimizer.
//
// Every rank holds the WHOLE model. Each global batch is cut into disjoint per-rank parts; each
// rank computes the gradient of the mean loss over its own part; the gradients are averaged
// with the ring allreduce (lesson 05's ring, in the kit's fast version); then every rank takes
// the same optimizer step, so the replicas stay identical, bit for bit. That is Horovod's
// DistributedOptimizer. Three ranks:
//
//   global batch of B examples, cut into parts of b = B/3:
//       [ part 0 | part 1 | part 2 ]
//           |        |        |
//         rank 0   rank 1   rank 2     each: g_r = mean gradient over its own part
//           \________|________/
//             ring allreduce           every rank holds g0 + g1 + g2
//             divide by 3              every rank holds g = (g0 + g1 + g2) / 3
//             SGD step                 every rank takes the same step with the same g
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

#include "ringlab/comm/allreduce.hpp"
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
// ring_allreduce_fast is lesson 05's ring (same schedule, same result on every rank), with
// segments and pipelining (core/include/ringlab/comm/allreduce.hpp). `grad` may live on a GPU
// (--device cuda): work on it with the kit's ops (ringlab::scale, ops.hpp), which follow the
// data, never with a loop over its elements.
inline void average_gradients(ringlab::Communicator& comm, View<float> grad) {
  // ==== BEGIN EXERCISE: average ====
  ringlab::ring_allreduce_fast<float>(comm, grad, grad);
  ringlab::scale(grad, 1.0f / static_cast<float>(comm.size()));
  // ==== END EXERCISE ====
}

// ---- the optimizer: SGD with momentum ---------------------------------------------------
// velocity = momentum * velocity + grad;  params -= lr * velocity   (PyTorch's form).
// Every rank runs this on identical inputs, so every rank gets identical results.
// ringlab::sgd_momentum (ops.hpp) is that loop for host Views and the same arithmetic in a
// CUDA kernel for GPU Views (--device cuda), so this file runs on either memory.
inline void sgd_momentum_update(View<float> params, View<const float> grad, View<float> velocity, float lr,
                                float momentum) {
  ringlab::sgd_momentum(params, grad, velocity, lr, momentum);
}

// ---- the distributed optimizer's step --------------------------------------------------
// What wraps the plain optimizer: allreduce-average the gradients, then step. `grad` holds this
// rank's gradient on entry and the averaged gradient on return.
inline void distributed_optimizer_step(ringlab::Communicator& comm, View<float> params, View<float> grad,
                                       View<float> velocity, float lr, float momentum) {
  // ==== BEGIN EXERCISE: step ====
  average_gradients(comm, grad);
  sgd_momentum_update(params, grad, velocity, lr, momentum);
  // ==== END EXERCISE ====
}

}  // namespace lesson06
