// Lesson 01 — ranks: who am I in a distributed job?
//   ./ringlab run 01 -np 4
//
// Every process in an MPI job gets a *world rank* (0..size-1, unique in the job) and a *local
// rank* (0..local_size-1, unique on its host). Frameworks pin one GPU per local rank — Horovod's
//   torch.cuda.set_device(hvd.local_rank())
// — so that the processes on one host do not all pile onto GPU 0. This program prints, in rank
// order, what each rank knows about itself and which device it would use; with --device cuda
// (or auto, where every rank sees a GPU) the GPU it set, and the transport its data takes.
#include <cstdio>

#include "ringlab/ringlab.hpp"

int main(int argc, char** argv) {
  ringlab::Runtime rt(argc, argv);
  CLI::App app{"Lesson 01 — ranks: world rank/size, local rank/size, host and device of every rank"};
  auto device_choice = ringlab::DeviceChoice::automatic;
  auto transport = ringlab::Transport::automatic;
  ringlab::add_device_options(app, device_choice, transport);
  if (auto exit_code = rt.parse(app, argc, argv)) return *exit_code;
  if (auto exit_code = rt.select_device(device_choice, transport, /*runs_on_gpu=*/true)) return *exit_code;

  auto& comm = rt.comm();
  // On the CPU: the GPU this rank would use (local_rank % number of GPUs on this host), or
  // "cpu" where there are none. On a GPU: the one it set, and how its data moves to the others.
  std::string device = ringlab::device_for_local_rank(comm.local_rank());
  if (comm.where() == ringlab::Where::device) {
    const ringlab::GpuInfo g = ringlab::gpu_info(comm.gpu());
    char gpu[256];
    std::snprintf(gpu, sizeof gpu, "cuda:%d (%s, PCI %s, %.1f GiB)  transport %s (%s)", g.index,
                  g.name.c_str(), g.pci_bus_id.c_str(), static_cast<double>(g.memory_bytes) / (1 << 30),
                  ringlab::transport_name(comm.transport()), comm.transport_reason().c_str());
    device = gpu;
  }

  char line[768];
  std::snprintf(line, sizeof line, "rank %d/%d  local %d/%d  host %s  device %s", comm.rank(), comm.size(),
                comm.local_rank(), comm.local_size(), comm.host().c_str(), device.c_str());
  // Printing from every rank straight to stdout would interleave at random; rank 0 prints all
  // lines in rank order instead.
  ringlab::print_in_rank_order(comm, line);
  return 0;
}
