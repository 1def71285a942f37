// Lesson 01 — ranks: who am I in a distributed job?
//   ./ringlab run 01 -np 4
//
// Every process in an MPI job gets a *world rank* (0..size-1, unique in the job) and a *local
// rank* (0..local_size-1, unique on its host). Frameworks pin one GPU per local rank — Horovod's
//   torch.cuda.set_device(hvd.local_rank())
// — so that the processes on one host do not all pile onto GPU 0. This program prints, in rank
// order, what each rank knows about itself and which device it would use.
#include <cstdio>

#include "ringlab/ringlab.hpp"

int main(int argc, char** argv) {
  ringlab::Runtime rt(argc, argv);
  CLI::App app{"Lesson 01 — ranks: world rank/size, local rank/size, host and device of every rank"};
  if (auto exit_code = rt.parse(app, argc, argv)) return *exit_code;

  auto& comm = rt.comm();
  // local_rank % number of GPUs on this host, or "cpu" where there are none.
  const std::string device = ringlab::device_for_local_rank(comm.local_rank());

  char line[512];
  std::snprintf(line, sizeof line, "rank %d/%d  local %d/%d  host %s  device %s", comm.rank(), comm.size(),
                comm.local_rank(), comm.local_size(), comm.host().c_str(), device.c_str());
  // Printing from every rank straight to stdout would interleave at random; rank 0 prints all
  // lines in rank order instead.
  ringlab::print_in_rank_order(comm, line);
  return 0;
}
