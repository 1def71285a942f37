// Lesson 03's --bench: the nccl-tests style table of the broadcasts check.hpp lists (busbw =
// algbw), 4 KiB to 64 MiB or only --count, and after each size how the chain compares with MPI.
#pragma once
#include <cstddef>
#include <cstdio>
#include <vector>

#include "check.hpp"
#include "ringlab/ringlab.hpp"

namespace lesson03 {

// After each size of the table: how the chain (the kit's best broadcast) compares with MPI.
inline void print_chain_vs_mpi(ringlab::Communicator& comm, ringlab::Format format,
                               const std::vector<ringlab::BenchRow>& rows) {
  double chain_bw = 0, mpi_bw = 0;
  for (const auto& row : rows) {
    if (row.impl == "chain") chain_bw = row.busbw;
    if (row.impl == "mpi") mpi_bw = row.busbw;
  }
  if (format == ringlab::Format::table && comm.rank() == 0 && mpi_bw > 0 && !rows.empty())
    std::printf("%-10s %12zu   chain/mpi busbw ratio %.2f\n", "", rows[0].bytes, chain_bw / mpi_bw);
}

// Returns the number of wrong elements over all ranks (the table's #wrong column).
template <class T> long long bench_broadcasts(ringlab::Communicator& comm, std::size_t segment_bytes,
                                              const ringlab::CommonOptions& opt, bool count_given) {
  std::vector<std::size_t> counts;
  if (count_given) counts = {static_cast<std::size_t>(opt.count)};
  else
    for (std::size_t bytes : {4u << 10, 64u << 10, 1u << 20, 4u << 20, 16u << 20, 64u << 20})
      counts.push_back(bytes / sizeof(T));
  return ringlab::harness::bench(
      comm, broadcasts<T>(comm, segment_bytes), counts, opt, nullptr,
      [&](const std::vector<ringlab::BenchRow>& rows) { print_chain_vs_mpi(comm, opt.format, rows); });
}

}  // namespace lesson03
