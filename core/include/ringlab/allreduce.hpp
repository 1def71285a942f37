// The kit's fast ring allreduce: the same ring as lesson 05's readable reference
// (solutions/05_ring_allreduce/ring_allreduce.hpp: read that first), made fast enough to stand
// next to MPI_Allreduce. Training lessons call this one:
//   ringlab::ring_allreduce_fast(comm, View<const float>(grads), View<float>(grads));
//
// What changes from the reference, and why:
//
// 1. Chunks are cut into segments (a few hundred KiB). The reference receives a whole chunk
//    (count/n elements, megabytes) into a scratch buffer and only then adds it: by the time the
//    addition starts, the start of the scratch buffer has left the cache, so the numbers cross
//    the memory bus twice more. A segment is received into a small buffer and added while it
//    is still in cache.
//
// 2. Transfers are non-blocking and pipelined. While segment k is being added, segment k+1 is
//    already on its way (double buffering: two receive buffers, one being filled, one being
//    added). And a segment is passed on to the next rank the moment it is added, not when the
//    whole chunk is done, so the ring's steps overlap too:
//
//      rank r, reduce-scatter:     recv seg 0 | recv seg 1 | recv seg 2 | ...
//                                             | add seg 0  | add seg 1  | add seg 2
//                                             |            | send seg 0 | send seg 1   (to r+1,
//                                                                          its next step)
//
// 3. Out-of-place calls skip the reference's first copy of `in` into `out`: step 0 sends
//    straight from `in`, each addition writes out = in + received, and the allgather fills
//    the rest. Every chunk of `out` is written exactly once.
//
// The schedule (which chunk goes where at which step) is the reference's, so traces look the
// same, only with one send/recv per segment: events carry phase, step and chunk as before.
//
// Cost (n ranks, S bytes): 2(n-1) steps, 2(n-1)/n * S bytes sent per rank, as the reference;
// messages per rank: 2(n-1) * segments-per-chunk.
#pragma once
#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <vector>

#include "ringlab/buffer.hpp"
#include "ringlab/chunks.hpp"
#include "ringlab/comm.hpp"
#include "ringlab/trace.hpp"

namespace ringlab {

struct FastRingOptions {
  // Bytes per segment. Small enough that a segment stays in a core's L2 cache while it is
  // added, large enough that per-message costs (a few microseconds) stay small. Tuned on a
  // 2-core AMD EPYC with Open MPI 4.1 shared memory; see docs/lesson05.md.
  std::size_t segment_bytes = 256 << 10;
};

template <class T>
void ring_allreduce_fast(Communicator& comm, View<const T> in, View<T> out, const FastRingOptions& opt = {}) {
  if (in.size() != out.size()) throw std::invalid_argument("ring_allreduce_fast: in and out differ in size");
  const int n = comm.size(), r = comm.rank();
  const int next = (r + 1) % n, prev = (r - 1 + n) % n;
  constexpr int kTag = 51;  // apart from other traffic on the communicator
  trace::Collective tc("ring_allreduce_fast", in.data(), in.size());
  if (n == 1) {
    if (in.data() != out.data()) copy(out, in);
    tc.end(out.data(), out.size());
    return;
  }
  auto wrap = [n](int i) { return ((i % n) + n) % n; };

  // Every chunk is cut into the same number of segments, so sender and receiver agree on the
  // k-th message of a step without talking about it.
  const std::size_t largest_chunk = chunk_of(out.size(), n, 0).count;
  const std::size_t seg_elems = std::max<std::size_t>(1, opt.segment_bytes / sizeof(T));
  const int segments =
      static_cast<int>(std::max<std::size_t>(1, (largest_chunk + seg_elems - 1) / seg_elems));
  // Segment k of chunk c of view v (in or out), labelled with the chunk index for the trace.
  auto segment = [&](auto v, int c, int k) {
    const Chunk ch = chunk_of(out.size(), n, wrap(c));
    const Chunk seg = chunk_of(ch.count, segments, k);
    return v.sub(ch.offset + seg.offset, seg.count, wrap(c));
  };

  // Two receive slots of the largest segment's size: the communicator's scratch, in the same
  // memory as `out` (host or GPU), kept between calls so a benchmark times the ring, not the
  // allocator. Message j lands in slot j % 2.
  const std::size_t slot_elems = chunk_of(largest_chunk, segments, 0).count;
  const View<T> slots[2] = {comm.scratch_like(out.sub(0, slot_elems), 0),
                            comm.scratch_like(out.sub(0, slot_elems), 1)};
  static thread_local std::vector<Request> sends;
  static thread_local std::vector<Request> recvs;
  sends.clear();
  recvs.assign(2, Request{});

  // --- reduce-scatter: n-1 steps; message j = s * segments + k is segment k of step s ------
  const int rs_messages = (n - 1) * segments;
  auto post_recv = [&](int j) {  // into slot j % 2
    const int s = j / segments, k = j % segments;
    tc.at("reduce-scatter", s);
    View<T> mine = segment(out, r - s - 1, k);
    recvs[j % 2] = comm.irecv(slots[j % 2].sub(0, mine.size(), mine.chunk()), prev, kTag);
  };
  tc.at("reduce-scatter", 0);
  for (int k = 0; k < segments; ++k) sends.push_back(comm.isend(segment(in, r, k), next, kTag));
  post_recv(0);
  if (rs_messages > 1) post_recv(1);
  for (int j = 0; j < rs_messages; ++j) {
    const int s = j / segments, k = j % segments;
    comm.wait(recvs[j % 2]);
    tc.at("reduce-scatter", s);
    View<T> mine = segment(out, r - s - 1, k);
    reduce_sum(mine, segment(in, r - s - 1, k), View<const T>(slots[j % 2].sub(0, mine.size())));
    if (j + 2 < rs_messages) post_recv(j + 2);  // the slot is free again
    // Pass the freshly added segment on at once: it is what r+1 needs at its next step (the
    // finished sum, after the last step: allgather step 0).
    if (s + 1 < n - 1) tc.at("reduce-scatter", s + 1);
    else tc.at("allgather", 0);
    sends.push_back(comm.isend(mine, next, kTag));
  }

  // --- allgather: n-1 steps; received segments land in `out` directly and are passed on ----
  for (int s = 0; s < n - 1; ++s) {
    tc.at("allgather", s);
    // The chunk about to be overwritten, r - s, left this rank at reduce-scatter step s (sends
    // s * segments onwards): those sends must be finished before their buffer changes.
    for (int i = s * segments; i < (s + 1) * segments; ++i) comm.wait(sends[i]);
    recvs.clear();
    for (int k = 0; k < segments; ++k) recvs.push_back(comm.irecv(segment(out, r - s, k), prev, kTag));
    for (int k = 0; k < segments; ++k) {
      comm.wait(recvs[k]);
      if (s + 1 < n - 1) {
        tc.at("allgather", s + 1);
        sends.push_back(comm.isend(segment(out, r - s, k), next, kTag));
        tc.at("allgather", s);
      }
    }
  }
  comm.wait_all(sends);
  tc.end(out.data(), out.size());
}

}  // namespace ringlab
