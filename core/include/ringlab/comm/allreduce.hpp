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

#include "ringlab/base/buffer.hpp"
#include "ringlab/base/chunks.hpp"
#include "ringlab/comm/comm.hpp"
#include "ringlab/trace/trace.hpp"

namespace ringlab {

struct FastRingOptions {
  // Bytes per segment. Small enough that a segment stays in a core's L2 cache while it is
  // added, large enough that per-message costs (a few microseconds) stay small. Tuned on a
  // 2-core AMD EPYC with Open MPI 4.1 shared memory; see docs/lesson05.md.
  std::size_t segment_bytes = 256 << 10;
};
// Messages in flight at once (each with its own receive slot in the reduce-scatter): enough to
// keep the link busy while one segment is added, few enough that the slots stay in cache.
inline constexpr int kWindow = 4;

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

  // One stream of messages. Message j (0 <= j < M) is one segment: rank r receives message j
  // from prev and sends message j to next, and what r sends as message j is what next receives
  // as its message j. The first S (= segments) carry r's own input chunk; every message received
  // is passed on S messages later (after adding it, in the reduce-scatter; as it is, in the
  // allgather), and the last S received are kept.
  //
  //   j:        0 .. S-1 | S .. 2S-1 | ... | (n-1)S ..         | ... M-1 = 2(n-1)S - 1
  //             reduce-scatter step 0, 1, ..., n-2             | allgather step 0, ..., n-2
  //
  // W messages are in flight at once: while message j is added, j+1 .. j+W are on their way.
  // Receive k and send k are always posted together, so every wait finds the same message
  // indices posted on every rank, and every rank's group meets its neighbours' groups, as the
  // transport contract asks (ringlab/transport.hpp; --transport strict proves it). A send can
  // be posted only once its data is here: send k carries message k-S, so W <= S.
  const int S = segments, M = 2 * (n - 1) * S, RS = (n - 1) * S;  // RS: reduce-scatter's messages
  const int W = std::min(S, kWindow);
  auto label = [&](int j) {  // the trace context of message j: phase and step
    if (j < RS) tc.at("reduce-scatter", j / S);
    else tc.at("allgather", j / S - (n - 1));
  };
  // W+1 receive slots of the largest segment's size (the one being added, W in flight): the
  // communicator's scratch, in the same memory as `out` (host or GPU), kept between calls so a
  // benchmark times the ring, not the allocator. Reduce-scatter message j lands in slot j % (W+1).
  const std::size_t slot_elems = chunk_of(largest_chunk, segments, 0).count;
  View<T> slots[kWindow + 1];
  for (int i = 0; i <= W; ++i) slots[i] = comm.scratch_like(out.sub(0, slot_elems), i);
  // Where message j ends up on this rank: the segment of `out` it adds into (reduce-scatter
  // step s: chunk r-s-1) or lands in (allgather step a: chunk r-a).
  auto destination = [&](int j) {
    const int k = j % S;
    return j < RS ? segment(out, r - j / S - 1, k) : segment(out, r - (j / S - (n - 1)), k);
  };
  static thread_local std::vector<Request> recvs, sends;  // [j]: message j's; sends finish at the end
  recvs.clear();
  sends.clear();
  auto post = [&](int k) {  // receive k and send k: r's own segment, or message k-S passed on
    label(k);
    View<T> dst = destination(k);
    // An allgather message overwrites a segment of `out` that left this rank in the
    // reduce-scatter (message k - RS): that send must be finished first.
    if (k >= RS) comm.wait(sends[k - RS]);
    recvs.push_back(k < RS ? comm.irecv(slots[k % (W + 1)].sub(0, dst.size(), dst.chunk()), prev, kTag)
                           : comm.irecv(dst, prev, kTag));
    sends.push_back(k < S ? comm.isend(segment(in, r, k), next, kTag) : comm.isend(destination(k - S), next, kTag));
  };

  for (int k = 0; k < W; ++k) post(k);
  for (int j = 0; j < M; ++j) {
    comm.wait(recvs[j]);  // message j is here (the transports may finish its send with it)
    // Message j+W goes out before message j is added, so it moves during the addition, unless
    // its send carries message j itself (W == S): then it waits for the addition.
    const bool more = j + W < M, ready = W < S;
    if (more && ready) post(j + W);
    if (j < RS) {  // reduce-scatter: add the incoming segment to this rank's own
      label(j);
      View<T> mine = destination(j);
      reduce_sum(mine, segment(in, r - j / S - 1, j % S), View<const T>(slots[j % (W + 1)].sub(0, mine.size())));
    }
    if (more && !ready) post(j + W);
  }
  comm.wait_all(sends);
  tc.end(out.data(), out.size());
}

}  // namespace ringlab
