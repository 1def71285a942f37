// Lesson 01 — ranks: who am I in a distributed job?
//   ./ringlab run 01 -np 4
//   ./ringlab run 01 -np 4 -- --check     also verify: local ranks 0..local_size-1 on every host
//
// Every process in an MPI job gets a *world rank* (0..size-1, unique in the job) and a *local
// rank* (0..local_size-1, unique on its host). Frameworks pin one GPU per local rank — Horovod's
//   torch.cuda.set_device(hvd.local_rank())
// — so that the processes on one host do not all pile onto GPU 0. This program prints, in rank
// order, what each rank knows about itself and which device it would use; with --device cuda
// (or auto, where every rank sees a GPU) the GPU it set, and the transport its data takes.
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include "ringlab/ringlab.hpp"
#include "shared/format.hpp"

int main(int argc, char** argv) {
  ringlab::Runtime rt(argc, argv);
  CLI::App app{"Lesson 01 — ranks: world rank/size, local rank/size, host and device of every rank"};
  ringlab::CommonOptions opt;  // every lesson takes the same flags; this one uses --check and --trace
  ringlab::add_common_options(app, opt);
  opt.runs_on_gpu = true;  // --device cuda (or auto on a GPU node) sets this rank's GPU
  opt.runs_on_sim = true;  // --device sim: the same on the simulated GPU (sim_device.hpp)
  if (auto exit_code = rt.start(app, opt, argc, argv, /*buffers=*/0)) return *exit_code;
  if (auto e = rt.refuse_unused(app, {"--count", "--type", "--iters", "--warmup", "--bench", "--format"},
                                "it only prints who every rank is"))
    return *e;

  auto& comm = rt.comm();
  // On the CPU: the GPU this rank would use (local_rank % number of GPUs on this host), or
  // "cpu" where there are none. On a GPU: the one it set, and how its data moves to the others.
  std::string device = ringlab::device_for_local_rank(comm.local_rank());
  if (ringlab::sim_device::on()) {  // --device sim
    device = lessons::format("sim (a GPU simulated in host memory)  transport %s (%s)",
                             ringlab::transport_name(comm.transport()), comm.transport_reason().c_str());
  } else if (comm.where() == ringlab::Where::device) {
    const ringlab::GpuInfo g = ringlab::gpu_info(comm.gpu());
    device = lessons::format("cuda:%d (%s, PCI %s, %.1f GiB)  transport %s (%s)", g.index, g.name.c_str(),
                             g.pci_bus_id.c_str(), static_cast<double>(g.memory_bytes) / (1 << 30),
                             ringlab::transport_name(comm.transport()), comm.transport_reason().c_str());
  }

  // Printing from every rank straight to stdout would interleave at random; rank 0 prints all
  // lines in rank order instead.
  ringlab::print_in_rank_order(
      comm, lessons::format("rank %d/%d  local %d/%d  host %s  device %s", comm.rank(), comm.size(),
                            comm.local_rank(), comm.local_size(), comm.host().c_str(), device.c_str()));

  // --check: on every host the local ranks are 0..local_size-1, each once, and the local sizes
  // add up to the world size (what a GPU-per-local-rank mapping relies on).
  if (opt.check) {
    const auto all = comm.gather_strings(comm.host() + " " + std::to_string(comm.local_rank()) + " " +
                                         std::to_string(comm.local_size()));
    bool ok = true;
    if (comm.rank() == 0) {
      std::map<std::string, std::set<int>> locals;
      std::map<std::string, int> sizes;
      for (const auto& entry : all) {
        std::istringstream in(entry);
        std::string host;
        int local = -1, local_size = -1;
        in >> host >> local >> local_size;
        ok = ok && locals[host].insert(local).second && (!sizes.count(host) || sizes[host] == local_size);
        sizes[host] = local_size;
      }
      for (const auto& [host, set] : locals)
        ok = ok && static_cast<int>(set.size()) == sizes[host] && *set.begin() == 0 &&
             *set.rbegin() == sizes[host] - 1;
      std::printf("check: %zu host(s), local ranks 0..local_size-1 on each: %s\n", locals.size(),
                  ok ? "PASSED" : "FAILED");
    }
    ok = comm.all_ok(ok);  // rank 0's verdict, for every rank's exit code
    return ok ? 0 : 1;
  }
  return 0;
}
