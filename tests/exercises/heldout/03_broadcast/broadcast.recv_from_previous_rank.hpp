// Lesson 03 — broadcast: the root's buffer ends up on every rank. Three ways to do it.
//
// Ranks are numbered relative to the root, v = (rank - root) mod n, so the root is always v = 0
// and the pictures below hold for any root.
//
// 1. Linear: the root sends the whole buffer to every other rank in turn. n-1 sends, one after
//    the other, all from the root: the root's link carries (n-1) * S bytes while the others
//    idle. Time ~ (n-1) * S / bandwidth.
//
// 2. Binomial tree: in round k, every rank that has the data (v < 2^k) sends it to v + 2^k.
//    The number of ranks holding it doubles each round: ceil(log2 n) rounds. n = 8:
//
//      round 0   0 -> 1
//      round 1   0 -> 2   1 -> 3
//      round 2   0 -> 4   1 -> 5   2 -> 6   3 -> 7
//
//    Time ~ log2(n) * S / bandwidth: much better than linear, but each round still moves the
//    whole buffer, and in round 0 only one link is busy.
//
// 3. Pipelined chain: the ranks form a chain 0 -> 1 -> ... -> n-1 and the buffer is cut into
//    segments. A rank forwards segment s as soon as it has it, while segment s+1 arrives:
//
//      time ->     t0     t1     t2     t3     t4
//      0 -> 1      seg0   seg1   seg2   seg3
//      1 -> 2             seg0   seg1   seg2   seg3
//      2 -> 3                    seg0   seg1   seg2  ...
//
//    Once the pipe is full every link is busy. Time ~ (S + (n-2) * segment) / bandwidth: for a
//    large buffer, about one buffer's transfer time whatever n is. (NCCL broadcasts this way.)
#pragma once
#include <algorithm>
#include <vector>

#include "ringlab/ringlab.hpp"

namespace lesson03 {
using ringlab::View;

// Rank v relative to the root, and back.
inline int relative(int rank, int root, int n) { return (rank - root + n) % n; }
inline int absolute(int v, int root, int n) { return (v + root) % n; }

template <class T>
void linear_broadcast(ringlab::Communicator& comm, View<T> buf, int root) {
  const int n = comm.size(), v = relative(comm.rank(), root, n);
  ringlab::trace::Collective tc("bcast_linear", buf.data(), buf.size());
  if (v == 0) {
    for (int dst = 1; dst < n; ++dst) {  // one after the other: the root's link is the bottleneck
      tc.at("bcast-linear", dst - 1);
      comm.send(buf, absolute(dst, root, n));
    }
  } else {
    tc.at("bcast-linear", v - 1);
    comm.recv(buf, root);
  }
  tc.end(buf.data(), buf.size());
}

template <class T>
void tree_broadcast(ringlab::Communicator& comm, View<T> buf, int root) {
  const int n = comm.size(), v = relative(comm.rank(), root, n);
  ringlab::trace::Collective tc("bcast_tree", buf.data(), buf.size());
  // ==== BEGIN EXERCISE: binomial tree ====
  for (int k = 0, mask = 1; mask < n; ++k, mask <<= 1) {  // round k: the first 2^k ranks have it
    tc.at("bcast-tree", k);
    if (v < mask) {
      if (v + mask < n) comm.send(buf, absolute(v + mask, root, n));
    } else if (v < 2 * mask) {
      comm.recv(buf, absolute(v - 1, root, n));
    }
  }
  // ==== END EXERCISE ====
  tc.end(buf.data(), buf.size());
}

// `segment` elements per segment (the last one may be shorter). Every receive is posted up
// front, and every send is non-blocking, so a rank forwards segment s while s+1 is arriving.
template <class T>
void chain_broadcast(ringlab::Communicator& comm, View<T> buf, int root, std::size_t segment) {
  const int n = comm.size(), v = relative(comm.rank(), root, n);
  const int prev = absolute(v - 1 + n, root, n), next = absolute(v + 1, root, n);
  const bool has_prev = v > 0, has_next = v < n - 1;
  segment = std::max<std::size_t>(segment, 1);
  const int segments = static_cast<int>((buf.size() + segment - 1) / segment);
  auto seg = [&](int s) {
    const std::size_t off = static_cast<std::size_t>(s) * segment;
    return buf.sub(off, std::min(segment, buf.size() - off), s);
  };
  ringlab::trace::Collective tc("bcast_chain", buf.data(), buf.size());

  std::vector<ringlab::Request> recvs, sends;
  if (has_prev)
    for (int s = 0; s < segments; ++s) {
      tc.at("bcast-chain", s);
      recvs.push_back(comm.irecv(seg(s), prev));  // same peer, same tag: they match in order
    }
  for (int s = 0; s < segments; ++s) {
    tc.at("bcast-chain", s);
    if (has_prev) comm.wait(recvs[s]);                        // segment s is here...
    if (has_next) sends.push_back(comm.isend(seg(s), next));  // ...pass it on, take the next
  }
  comm.wait_all(sends);
  tc.end(buf.data(), buf.size());
}

}  // namespace lesson03
