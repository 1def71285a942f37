// Timing and the nccl-tests style table every benchmark in the kit prints:
//   size(B)  count  type  time(us)  algbw(GB/s)  busbw(GB/s)  #wrong
// algbw = bytes / time. busbw scales algbw by what each rank must move so that numbers are
// comparable across rank counts: x 2(n-1)/n for allreduce, x (n-1)/n for reduce-scatter and
// allgather, x 1 for broadcast and reduce (GB = 1e9 bytes).
#pragma once
#include <string>

#include "ringlab/comm/cli.hpp"
#include "ringlab/comm/comm.hpp"

namespace ringlab {

struct BenchRow {
  std::string impl;
  std::size_t bytes = 0;
  std::size_t count = 0;
  DType type = DType::f32;
  double time_us = 0;
  double algbw = 0;  // GB/s
  double busbw = 0;  // GB/s
  long long wrong = 0;
};

inline double allreduce_bus_factor(int n) { return n > 1 ? 2.0 * (n - 1) / n : 1.0; }
inline double gather_bus_factor(int n) { return n > 1 ? double(n - 1) / n : 1.0; }

// Fills algbw and busbw from bytes and time_us.
void set_bandwidth(BenchRow& row, double bus_factor);

// Printed by rank 0 only.
void print_bench_header(Communicator& comm, Format f);
void print_bench_row(Communicator& comm, Format f, const BenchRow& row);

}  // namespace ringlab
