// The ring's two halves as collectives of their own: reduce_scatter and allgather.
//   ringlab::reduce_scatter(comm, View<const float>(grad), View<float>(grad));  // my chunk: the sum
//   ringlab::allgather(comm, View<float>(params));                               // every chunk: everyone's
// Lesson 05 shows that a ring allreduce is a reduce-scatter followed by an allgather. Sharded
// training (lesson 09: ZeRO, FSDP) uses the halves apart: reduce-scatter the gradient, so each
// rank holds the sum of only its own chunk; update only that chunk of the parameters; allgather
// the parameters, so everyone has every chunk again.
//
// Who owns what. The buffer is cut into n chunks as lesson 05 cuts it (base/chunks.hpp: the first
// count % n chunks one element longer). Rank r OWNS CHUNK r: after reduce_scatter its chunk r is
// the sum over all ranks; allgather starts from every rank's chunk r. Three ranks, chunks a b c,
// rank r's numbers written a_r (compare lesson 05's picture, where rank r ends with chunk r+1):
//
//   reduce-scatter: step s, rank r sends chunk r-1-s to r+1, receives chunk r-2-s from r-1 and
//   adds its own numbers of that chunk:
//            chunk 0         chunk 1         chunk 2
//   step 0   r0 --chunk 2--> r1,  r1 --chunk 0--> r2,  r2 --chunk 1--> r0
//            r0:             b0+b2
//            r1:                             c1+c0
//            r2: a2+a1
//   step 1   r0 --chunk 1--> r1,  r1 --chunk 2--> r2,  r2 --chunk 0--> r0
//            r0: a0+a2+a1 *
//            r1:             b1+b0+b2 *
//            r2:                             c2+c1+c0 *
//   rank r holds the finished sum of chunk r (marked *). The rest of its buffer held partial
//   sums on the way: after reduce_scatter only chunk r of `out` is promised.
//
//   allgather: step a, rank r sends chunk r-a to r+1 and receives chunk r-1-a from r-1:
//   step 0   r0 --chunk 0--> r1,  r1 --chunk 1--> r2,  r2 --chunk 2--> r0
//   step 1   r0 --chunk 2--> r1,  r1 --chunk 0--> r2,  r2 --chunk 1--> r0
//
// One source of truth: the kit's fast ring allreduce (comm/allreduce.hpp) and these two are the
// same stream of messages, detail::ring_messages below: a reduce-scatter is its first half, an
// allgather its second, an allreduce all of it (so the allreduce keeps its pipelining across
// the boundary: the first allgather segments leave while the last sums are still being added).
// The allreduce keeps lesson 05's picture (it ends its reduce-scatter one chunk later, at r+1;
// `owner_shift` below), so its traces match the reference ring's step for step.
//
// Cost (n ranks, S bytes in the whole buffer): each half takes n-1 steps and sends (n-1)/n * S
// bytes per rank: half of the allreduce's. nccl-tests' busbw factor for either is (n-1)/n.
//
// Host or device buffers alike: the algorithm takes Views and the communicator's scratch in the
// same memory, and adds with reduce_sum (ops.hpp), which follows the data.
#pragma once
#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>
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

namespace detail {

// Which part of the ring's message stream a call runs.
enum class RingPart { reduce_scatter, allgather, both };

// The ring as one stream of messages. Message j (0 <= j < M) is one segment: rank r receives
// message j from prev and sends message j to next, and what r sends as message j is what next
// receives as its message j. The first S (= segments per chunk) carry r's own input chunk;
// every message received is passed on S messages later (after adding it, in the reduce-scatter;
// as it is, in the allgather), and the last S received are kept.
//
//   j:        0 .. S-1 | S .. 2S-1 | ... | (n-1)S ..         | ... M-1 = 2(n-1)S - 1
//             reduce-scatter step 0, 1, ..., n-2             | allgather step 0, ..., n-2
//
// A call runs messages [first, last): the reduce-scatter's, the allgather's, or all of them.
// With owner_shift o, rank r ends the reduce-scatter holding chunk r+o (0: reduce_scatter's
// rank r owns chunk r; 1: lesson 05's schedule, which the allreduce keeps):
//   reduce-scatter step s: send chunk r+o-1-s, receive chunk r+o-2-s and add it
//   allgather step a:      send chunk r+o-a,   receive chunk r+o-1-a and keep it
//
// Chunks are cut into segments (a few hundred KiB) and W messages are in flight at once: while
// message j is added, j+1 .. j+W are on their way. Receive k and send k are always posted
// together, so every wait finds the same message indices posted on every rank, and every rank's
// group meets its neighbours' groups, as the transport contract asks (comm/transport.hpp;
// --transport strict proves it). A send can be posted only once its data is here: send k
// carries message k-S, so W <= S.
//
// `in` is read by the reduce-scatter (step 0 sends from it; each addition is out = in +
// received), `out` is written: every chunk the stream receives lands there. `in` and `out` may
// be the same buffer. The allgather alone never reads `in`.
template <class T> void ring_messages(Communicator& comm, const char* name, trace::Collective& tc,
                                      View<const T> in, View<T> out, RingPart part, int owner_shift,
                                      const FastRingOptions& opt) {
  // The reduce-scatter receives into the communicator's scratch (below): handed a View of that
  // scratch itself (from comm.scratch_like), it would overwrite its own argument with what arrives.
  if (part != RingPart::allgather) {
    comm.refuse_scratch(in.data(), in.bytes(), name, "in");
    comm.refuse_scratch(out.data(), out.bytes(), name, "out");
  }
  const int n = comm.size(), r = comm.rank();
  const int next = (r + 1) % n, prev = (r - 1 + n) % n;
  constexpr int kTag = 51;  // apart from other traffic on the communicator
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

  const int S = segments, M = 2 * (n - 1) * S, RS = (n - 1) * S;  // RS: the reduce-scatter's messages
  const int first = part == RingPart::allgather ? RS : 0;
  const int last = part == RingPart::reduce_scatter ? RS : M;
  const int o = owner_shift;
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
  if (first < RS)
    for (int i = 0; i <= W; ++i) slots[i] = comm.scratch_like(out.sub(0, slot_elems), i);
  // Where message j ends up on this rank: the segment of `out` it adds into (reduce-scatter
  // step s: chunk r+o-2-s) or lands in (allgather step a: chunk r+o-1-a).
  auto destination = [&](int j) {
    const int k = j % S;
    return j < RS ? segment(out, r + o - 2 - j / S, k) : segment(out, r + o - 1 - (j / S - (n - 1)), k);
  };
  // What rank r sends as message k: its own input in the first step, else what it received as
  // message k-S (for the allgather's first step: the reduce-scatter's last, the chunk r owns).
  auto source = [&](int k) -> View<const T> {
    if (k < S) return segment(in, r + o - 1, k);
    return destination(k - S);
  };
  static thread_local std::vector<Request> recvs, sends;  // [j - first]: message j's
  recvs.clear();
  sends.clear();
  auto post = [&](int k) {  // receive k and send k
    label(k);
    View<T> dst = destination(k);
    // An allgather message overwrites a segment of `out` that left this rank in the
    // reduce-scatter (message k - RS): that send must be finished first.
    if (k >= RS && k - RS >= first) comm.wait(sends[static_cast<std::size_t>(k - RS - first)]);
    recvs.push_back(k < RS ? comm.irecv(slots[k % (W + 1)].sub(0, dst.size(), dst.chunk()), prev, kTag)
                           : comm.irecv(dst, prev, kTag));
    sends.push_back(comm.isend(source(k), next, kTag));
  };

  for (int k = first; k < std::min(first + W, last); ++k) post(k);
  for (int j = first; j < last; ++j) {
    comm.wait(recvs[static_cast<std::size_t>(j - first)]);  // message j is here
    // Message j+W goes out before message j is added, so it moves during the addition, unless
    // its send carries message j itself (W == S): then it waits for the addition.
    const bool more = j + W < last, ready = W < S;
    if (more && ready) post(j + W);
    if (j < RS) {  // reduce-scatter: add the incoming segment to this rank's own
      label(j);
      View<T> mine = destination(j);
      reduce_sum(mine, segment(in, r + o - 2 - j / S, j % S),
                 View<const T>(slots[j % (W + 1)].sub(0, mine.size())));
    }
    if (more && !ready) post(j + W);
  }
  comm.wait_all(sends);
}

}  // namespace detail

// The chunk of a `count`-element buffer that rank `rank` of `ranks` owns (the one reduce_scatter
// leaves summed there, and allgather sends out): chunk_of(count, ranks, rank). Refused in its own
// words when rank is not one of ranks (the two swapped: ranks = comm.rank(), rank = comm.size()).
inline Chunk owned_chunk(std::size_t count, int ranks, int rank) {
  if (ranks < 1 || rank < 0 || rank >= ranks)
    throw std::out_of_range("owned_chunk(count = " + std::to_string(count) + ", ranks = " + std::to_string(ranks) +
                            ", rank = " + std::to_string(rank) +
                            "): rank must be in [0, ranks) — ranks is the number of ranks (comm.size()), rank this "
                            "rank's number (comm.rank())");
  return chunk_of(count, ranks, rank);
}

// Reduce-scatter: on return, chunk comm.rank() of `out` (owned_chunk) holds the element-wise
// sum over all ranks of that chunk of `in`. `in` and `out` have the same size and may be the
// same buffer. The ring keeps its partial sums in the rest of `out`: those elements are
// overwritten, and hold nothing promised afterwards.
template <class T>
void reduce_scatter(Communicator& comm, View<const T> in, View<T> out, const FastRingOptions& opt = {}) {
  if (in.size() != out.size()) throw std::invalid_argument("reduce_scatter: in and out differ in size");
  trace::Collective tc("reduce_scatter", in.data(), in.size());
  if (comm.size() == 1) {
    if (in.data() != out.data()) copy(out, in);
  } else {
    detail::ring_messages(comm, "reduce_scatter", tc, in, out, detail::RingPart::reduce_scatter, 0, opt);
  }
  tc.end(out.data(), out.size());
}

// Allgather, in place: on entry chunk comm.rank() of `buf` (owned_chunk) holds this rank's
// part; on return every chunk holds its owner's part, on every rank.
template <class T> void allgather(Communicator& comm, View<T> buf, const FastRingOptions& opt = {}) {
  trace::Collective tc("allgather", buf.data(), buf.size());
  if (comm.size() > 1)
    detail::ring_messages(comm, "allgather", tc, View<const T>(buf), buf, detail::RingPart::allgather, 0, opt);
  tc.end(buf.data(), buf.size());
}

// Allgather from a separate buffer: `mine` (owned_chunk(out.size(), ...).count elements) is
// copied into this rank's chunk of `out`, then every rank's chunk is gathered into `out`.
template <class T>
void allgather(Communicator& comm, View<const T> mine, View<T> out, const FastRingOptions& opt = {}) {
  const Chunk own = owned_chunk(out.size(), comm.size(), comm.rank());
  if (mine.size() != own.count)
    throw std::invalid_argument("allgather: rank " + std::to_string(comm.rank()) + " owns " +
                                std::to_string(own.count) + " of " + std::to_string(out.size()) +
                                " elements, got " + std::to_string(mine.size()));
  if (mine.data() != out.data() + own.offset) copy(out.sub(own.offset, own.count), mine);
  allgather(comm, out, opt);
}

}  // namespace ringlab
