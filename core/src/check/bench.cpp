#include "ringlab/check/bench.hpp"

#include <cstdio>

namespace ringlab {

void set_bandwidth(BenchRow& row, double bus_factor) {
  row.algbw = row.time_us > 0 ? row.bytes / (row.time_us * 1e-6) / 1e9 : 0;
  row.busbw = row.algbw * bus_factor;
}

void print_bench_header(Communicator& comm, Format f) {
  if (comm.rank() != 0) return;
  if (f == Format::csv) std::printf("impl,size_bytes,count,type,time_us,algbw_gbs,busbw_gbs,wrong\n");
  else
    std::printf("%-10s %12s %11s %7s %11s %12s %12s %7s\n", "impl", "size(B)", "count", "type", "time(us)",
                "algbw(GB/s)", "busbw(GB/s)", "#wrong");
  std::fflush(stdout);
}

void print_bench_row(Communicator& comm, Format f, const BenchRow& r) {
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
