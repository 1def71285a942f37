// Timing and the nccl-tests style table every benchmark in the kit prints:
//   size(B)  count  type  time(us)  algbw(GB/s)  busbw(GB/s)  #wrong
// algbw = bytes / time. busbw scales algbw by what each rank must move so that numbers are
// comparable across rank counts: x 2(n-1)/n for allreduce, x (n-1)/n for reduce-scatter and
// allgather, x 1 for broadcast and reduce (GB = 1e9 bytes).
#pragma once
#include <cstdio>
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

// Printed by rank 0 only.
inline void print_bench_header(Communicator& comm, Format f) {
  if (comm.rank() != 0) return;
  if (f == Format::csv) std::printf("impl,size_bytes,count,type,time_us,algbw_gbs,busbw_gbs,wrong\n");
  else
    std::printf("%-10s %12s %11s %7s %11s %12s %12s %7s\n", "impl", "size(B)", "count", "type", "time(us)",
                "algbw(GB/s)", "busbw(GB/s)", "#wrong");
  std::fflush(stdout);
}

inline void print_bench_row(Communicator& comm, Format f, const BenchRow& r) {
  if (comm.rank() != 0) return;
  if (f == Format::csv)
    std::printf("%s,%zu,%zu,%s,%.2f,%.4f,%.4f,%lld\n", r.impl.c_str(), r.bytes, r.count, dtype_name(r.type),
                r.time_us, r.algbw, r.busbw, r.wrong);
  else
    std::printf("%-10s %12zu %11zu %7s %11.1f %12.3f %12.3f %7lld\n", r.impl.c_str(), r.bytes, r.count,
                dtype_name(r.type), r.time_us, r.algbw, r.busbw, r.wrong);
  std::fflush(stdout);
}

}  // namespace ringlab
