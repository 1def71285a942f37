// Lesson 05 — ring allreduce, the readable reference.
//
// Every rank starts with its own buffer of `count` numbers; every rank ends with the element-
// wise sum over all ranks. Cut the buffer into n chunks (n = number of ranks). Each rank only
// ever talks to its two neighbours: it sends to rank+1 and receives from rank-1.
//
// Phase 1, reduce-scatter (n-1 steps). At step s, rank r sends chunk (r - s) mod n to r+1 and
// receives chunk (r - s - 1) mod n from r-1, adding it into its own copy. Three ranks, chunks
// a, b, c, rank r's own numbers written a_r:
//
//            chunk 0         chunk 1         chunk 2
//   start    r0: a0          b0              c0
//            r1: a1          b1              c1
//            r2: a2          b2              c2
//   step 0   r0 --chunk 0--> r1,  r1 --chunk 1--> r2,  r2 --chunk 2--> r0
//            r0: a0          b0              c0+c2
//            r1: a0+a1       b1              c1
//            r2: a2          b1+b2           c2
//   step 1   r0 --chunk 2--> r1,  r1 --chunk 0--> r2,  r2 --chunk 1--> r0
//            r0: a0          b0+b1+b2 *      c0+c2
//            r1: a0+a1       b1              c0+c1+c2 *
//            r2: a0+a1+a2 *  b1+b2           c2
//
// Now rank r holds the finished sum of chunk (r + 1) mod n (marked *).
//
// Phase 2, allgather (n-1 steps). At step s, rank r sends chunk (r + 1 - s) mod n to r+1 and
// receives chunk (r - s) mod n from r-1, overwriting its copy:
//   step 0   r0 --chunk 1--> r1,  r1 --chunk 2--> r2,  r2 --chunk 0--> r0
//   step 1   r0 --chunk 0--> r1,  r1 --chunk 1--> r2,  r2 --chunk 2--> r0
// and every rank holds every finished chunk.
//
// Cost: 2(n-1) steps, each moving count/n elements per rank, so each rank sends
// 2(n-1)/n * count elements in all — nearly independent of n. That is why rings scale.
// (`./ringlab run 05 -- --schedule` prints this schedule from a real run's trace.)
#pragma once
#include <vector>

#include "ringlab/ringlab.hpp"

namespace lesson05 {
using ringlab::View;

// The chunk index i wrapped into 0..n-1 (i may be negative: r - s - 1 at rank 0).
inline int wrap(int i, int n) { return ((i % n) + n) % n; }

template <class T>
void ring_allreduce(ringlab::Communicator& comm, View<const T> in, View<T> out) {
  const int n = comm.size(), r = comm.rank();
  const int next = (r + 1) % n, prev = (r - 1 + n) % n;
  ringlab::trace::Collective tc("ring_allreduce", in.data(), in.size());
  if (in.data() != out.data()) ringlab::copy(out, in);  // out-of-place: work in `out`

  // Chunk i of `out`, labelled with its index so the trace (and the visualizer) can name it.
  auto chunk = [&](int i) {
    const ringlab::Chunk c = ringlab::chunk_of(out.size(), n, wrap(i, n));
    return out.sub(c.offset, c.count, wrap(i, n));
  };
  // ==== BEGIN EXERCISE: reduce-scatter ====
  // TODO(exercise): the reduce-scatter: n-1 steps, s = 0 .. n-2 (phase 1 of the picture above).
  // Invariant: after step s, rank r's copy of chunk (r - s - 1) mod n is that chunk summed over
  // the s + 2 ranks r - s - 1 .. r, so at the end chunk (r + 1) mod n is summed over all n.
  // Each step, a rank sends one chunk to `next` and adds the one from `prev` into its own copy
  // (what arrives must not overwrite the terms it is added to), and no rank blocks in a send: a
  // ring of blocked sends deadlocks once chunks are large. `out` may be GPU memory: add and
  // allocate through the kit (ringlab/comm/ops.hpp, the communicator), no loops over elements.
  // In scope: comm, tc, n, r, next, prev, chunk(i) (i may be any int: it wraps i and sizes the chunk).
  // tc.at("reduce-scatter", s) starts each step. Stuck? ./ringlab hint 05
  (void)next, (void)prev, (void)chunk;  // TODO(exercise): delete this line once you use them
  // ==== END EXERCISE ====
  // ==== BEGIN EXERCISE: allgather ====
  // TODO(exercise): the allgather: n-1 steps, s = 0 .. n-2 (phase 2). Invariant: before it, rank
  // r holds one finished chunk, (r + 1) mod n; after step s it holds s + 2, (r + 1 - k) mod n for
  // k = 0 .. s + 1, so at the end all of `out` is the finished sum on every rank. A finished chunk
  // travels on unchanged: what arrives replaces this rank's partial copy, nothing is added. Same
  // neighbours, same rule against blocking sends. tc.at("allgather", s) starts each step.
  // ==== END EXERCISE ====
  tc.end(out.data(), out.size());
}

// The parameter-server shape, for contrast: everyone sends everything to rank 0, rank 0 adds
// it all up and sends the result back to everyone. Rank 0 moves 2(n-1) * count elements;
// the ring moved 2(n-1)/n * count per rank.
template <class T>
void naive_allreduce(ringlab::Communicator& comm, View<const T> in, View<T> out) {
  const int n = comm.size(), r = comm.rank();
  ringlab::trace::Collective tc("naive_allreduce", in.data(), in.size());
  if (in.data() != out.data()) ringlab::copy(out, in);
  View<T> incoming = comm.scratch_like(out);  // the communicator's scratch, in out's memory

  for (int src = 1; src < n; ++src) {  // reduce: rank 0 receives from each rank in turn
    tc.at("reduce", src - 1);
    if (r == 0) {
      comm.recv(incoming, src);
      ringlab::reduce_sum(out, incoming);
    } else if (r == src) {
      comm.send(out, 0);
    }
  }
  for (int dst = 1; dst < n; ++dst) {  // broadcast: rank 0 sends the sum to each rank in turn
    tc.at("broadcast", dst - 1);
    if (r == 0) comm.send(out, dst);
    else if (r == dst) comm.recv(out, 0);
  }
  tc.end(out.data(), out.size());
}

}  // namespace lesson05
