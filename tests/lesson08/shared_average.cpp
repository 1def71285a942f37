// The shared-memory averaging (ringlab/shared_average.hpp) on its own, between real processes.
//   shared_average             three steps of three slices started in backward order: every
//                              element of every rank equals the mean
//                              of the ranks' values (summed in rank order, times 1/n: exact), a
//                              slice nobody started keeps this rank's own values. Exit 0 or 1.
//   shared_average --mismatch  rank 0 starts one slice more than the others: it must stop the
//                              run with one line naming the cause (after RINGLAB_WATCHDOG_S),
//                              never spin forever.
#include <mpi.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "ringlab/comm/shared_average.hpp"

using ringlab::SharedAverage;

namespace {
// Rank r's value of element i in step s: different on every rank, step and element.
float value(int rank, int step, std::size_t i) {
  return static_cast<float>((rank + 1) * static_cast<int>(i % 101)) * 0.37f + static_cast<float>(step);
}
}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int failures = 0;
  {
    ringlab::Communicator comm(MPI_COMM_WORLD);
    const int n = comm.size(), rank = comm.rank();
    const std::size_t count = 100003;  // not a multiple of any rank count: parts of unequal size
    SharedAverage avg(comm, count);
    float* g = avg.gradient().data();
    const bool mismatch = argc > 1 && std::strcmp(argv[1], "--mismatch") == 0;
    // Slices in backward order (the end of the array first); [0, 1000) is never started.
    const std::size_t bounds[] = {1000, 30000, 70001, count};
    for (int step = 0; step < 3; ++step) {
      for (std::size_t i = 0; i < count; ++i) g[i] = value(rank, step, i);  // "backward" writes
      avg.new_step();
      for (int k = 2; k >= 0; --k) avg.start(bounds[k], bounds[k + 1] - bounds[k]);
      if (mismatch && rank == 0) avg.start(0, 1000);  // a slice the other ranks never start
      avg.wait_all();
      for (std::size_t i = 0; i < count; ++i) {
        float expected = value(rank, step, i);
        if (i >= bounds[0]) {
          expected = 0;
          for (int r = 0; r < n; ++r) expected += value(r, step, i);
          expected *= 1.0f / static_cast<float>(n);
        }
        if (g[i] != expected && failures++ < 3)  // (every wrong element counted, the first 3 printed)
          std::printf("rank %d step %d: element %zu is %.9g, expected %.9g WRONG\n", rank, step, i, g[i],
                      expected);
      }
      MPI_Barrier(MPI_COMM_WORLD);  // every rank has checked before the next step writes again
    }
    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
      std::printf("shared average on %d ranks, 3 steps of 3 slices: %d wrong elements: %s\n", n, all,
                  all == 0 ? "PASSED" : "FAILED");
    failures = all;
  }
  MPI_Finalize();
  return failures == 0 ? 0 : 1;
}
