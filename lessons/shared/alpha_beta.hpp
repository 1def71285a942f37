// The α-β model of a message: sending b bytes takes t(b) = α + β·b.
//   α (latency): the fixed cost of one message, whatever its size (microseconds).
//   β (inverse bandwidth): the cost of each byte (microseconds per byte; 1/β is the bandwidth).
// Measure both with a ping-pong between ranks 0 and 1, then predict a ring allreduce of S bytes
// on n ranks: 2(n-1) steps, each sending one chunk of S/n bytes, so
//   t_ring ≈ 2(n-1) · (α + β·S/n).
// The model ignores the additions and the memory traffic they cause: the gap between predicted
// and measured is what the reduce-scatter's additions (and waiting on the slowest rank) cost.
#pragma once
#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <vector>

#include "ringlab/ringlab.hpp"

namespace lessons {

struct AlphaBeta {
  double alpha_us = 0;          // latency per message
  double beta_us_per_byte = 0;  // time per byte
  double predict_us(double bytes) const { return alpha_us + beta_us_per_byte * bytes; }
  double ring_allreduce_us(double total_bytes, int n) const {
    return n > 1 ? 2.0 * (n - 1) * predict_us(total_bytes / n) : 0.0;
  }
};

struct PingPongSample {
  double bytes;
  double one_way_us;  // half a round trip
};

// Rank 0 sends `bytes` to rank 1, which sends them back; half the round trip is one message.
// Each size is timed in a few batches and the fastest batch kept: on a shared machine the
// slow batches measure the other programs, not the network. Other ranks wait at a barrier.
// Returns the same samples on every rank.
inline std::vector<PingPongSample> ping_pong(ringlab::Communicator& comm,
                                             const std::vector<std::size_t>& sizes) {
  std::vector<PingPongSample> samples;
  // Bytes travel as floats (the communicator moves typed data); sizes are multiples of 4.
  std::vector<float> buf(sizes.empty() ? 0 : *std::max_element(sizes.begin(), sizes.end()) / sizeof(float));
  for (std::size_t bytes : sizes) {
    // Enough round trips to average out the clock, few enough for megabytes to stay quick.
    const int reps = bytes <= (64 << 10) ? 100 : bytes <= (1 << 20) ? 20 : 5;
    ringlab::View<float> msg(buf.data(), bytes / sizeof(float));
    auto round_trip = [&] {
      if (comm.rank() == 0) {
        comm.send(msg, 1);
        comm.recv(msg, 1);
      } else if (comm.rank() == 1) {
        comm.recv(msg, 0);
        comm.send(msg, 0);
      }
    };
    comm.barrier();
    round_trip();  // warm-up: first touch of the buffer, connection set-up
    double best = 1e300;
    for (int batch = 0; batch < 3; ++batch) {
      const double t = MPI_Wtime();
      for (int i = 0; i < reps; ++i) round_trip();
      best = std::min(best, (MPI_Wtime() - t) / reps / 2 * 1e6);
    }
    MPI_Bcast(&best, 1, MPI_DOUBLE, 0, comm.raw());  // rank 0's clock speaks for the pair
    samples.push_back({static_cast<double>(bytes), best});
  }
  comm.barrier();
  return samples;
}

// Least squares fit of t = α + β·b. Each sample's error is taken relative to its own time
// (weights 1/t²): otherwise the millisecond-long large messages would decide α as well as β,
// and the microsecond latency would drown in their noise.
inline AlphaBeta fit_alpha_beta(const std::vector<PingPongSample>& samples) {
  // Minimise Σ w (α + β b - t)², w = 1/t²: the 2x2 normal equations.
  double sw = 0, sb = 0, sbb = 0, st = 0, sbt = 0;
  for (const auto& s : samples) {
    const double t = std::max(s.one_way_us, 1e-3);
    const double w = 1.0 / (t * t);
    sw += w;
    sb += w * s.bytes;
    sbb += w * s.bytes * s.bytes;
    st += w * s.one_way_us;
    sbt += w * s.bytes * s.one_way_us;
  }
  const double det = sw * sbb - sb * sb;
  AlphaBeta m;
  if (det == 0) return m;
  m.alpha_us = (sbb * st - sb * sbt) / det;
  m.beta_us_per_byte = (sw * sbt - sb * st) / det;
  return m;
}

}  // namespace lessons
