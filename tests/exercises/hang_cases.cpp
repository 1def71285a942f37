// Deliberately broken programs for the watchdog's tests: each one hangs, and the watchdog must
// say why. Run with RINGLAB_WATCHDOG_S set low:
//   RINGLAB_WATCHDOG_S=3 scripts/ringlab-mpirun -np 3 build/bin/hang_cases --case send-first-ring
// Cases:
//   send-first-ring  every rank sends 8 MiB to rank+1, then receives from rank-1 (a cycle of sends)
//   missing-send     rank 1 waits for a message from rank 2, which goes on to a barrier instead
//   tag-mismatch     rank 0 sends with tag 1, rank 1 receives with tag 0
#include <string>
#include <vector>

#include "ringlab/ringlab.hpp"

using namespace ringlab;

int main(int argc, char** argv) {
  Runtime rt(argc, argv);
  CLI::App app{"Programs that hang on purpose, for the watchdog's tests"};
  std::string which = "send-first-ring";
  app.add_option("--case", which, "send-first-ring, missing-send or tag-mismatch")
      ->check(CLI::IsMember({"send-first-ring", "missing-send", "tag-mismatch"}));
  if (auto code = rt.parse(app, argc, argv)) return *code;
  auto& comm = rt.comm();
  const int n = comm.size(), r = comm.rank();
  std::vector<float> out(2 << 20, 1.0f), in(2 << 20);  // 8 MiB: far beyond any eager limit

  trace::Collective tc("broken_ring", out.data(), out.size());
  tc.at("exchange", 0);
  if (which == "send-first-ring") {
    comm.send(View<float>(out), (r + 1) % n);
    comm.recv(View<float>(in), (r - 1 + n) % n);
  } else if (which == "missing-send") {
    if (r == 1) comm.recv(View<float>(in), 2);
    comm.barrier();
  } else {  // tag-mismatch
    if (r == 0) comm.send(View<float>(out), 1, /*tag=*/1);
    if (r == 1) comm.recv(View<float>(in), 0, /*tag=*/0);
    comm.barrier();
  }
  tc.end(in.data(), in.size());
  print_once(comm, "no hang\n");
  return 0;
}
