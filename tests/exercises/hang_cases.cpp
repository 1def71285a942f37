// Deliberately broken programs for the watchdog's tests: each one hangs, and the watchdog must
// say why. Run with RINGLAB_WATCHDOG_S set low:
//   RINGLAB_WATCHDOG_S=3 scripts/ringlab-mpirun -np 3 build/bin/hang_cases --case send-first-ring
// Cases:
//   send-first-ring  every rank sends 8 MiB to rank+1, then receives from rank-1 (a cycle of sends)
//   missing-send     rank 1 waits for a message from rank 2, which goes on to a barrier instead
//   tag-mismatch     rank 0 sends with tag 1, rank 1 receives with tag 0
//   self-recv        rank 1 waits to receive from itself (a peer computed wrong)
//   skipped-collective  rank 0 receives from rank 1 inside a second collective ("average") that
//                    rank 1 never calls: rank 1 goes on to a barrier (a call made on one rank only)
// Two more, inside an exercise's algorithm whose schedule the kit knows (WatchSchedule): the
// watchdog compares each blocked call with it and names the one that departs:
//   wrong-tree       the binomial tree (root 0) with each rank receiving from v - 1, not its parent
//   wrong-chain      lesson 02's chain with each rank receiving from the rank after it, not before
// And two that do not hang but leave a message behind (the run must exit 1, naming it):
//   no-wait          rank 0 isends a small message and never waits for the request
//   stray-send       in "extra_send" rank 0 sends rank 1 one message too many; a correct
//                    exchange after it must still get its own data, and the stray one is blamed
//                    on extra_send
// And two that MPI or the Communicator stops with an error (exit 4), named:
//   negative-peer    rank 0 receives from rank r - 1 = -1 (MPI would read it as "any rank")
//   too-long         8 elements sent into a receive of 4 (MPI_ERR_TRUNCATE)
//   null-view        rank 0 sends a View of 1 element at an empty buffer's data() (MPI_ERR_BUFFER)
// And one that dies of a fault, which must say where it was (the fault report, not a backtrace):
//   divide-by-zero   rank 0 takes a number % 0 in round 0 of a tree (a modulus of the wrong variable)
#include <cstdio>
#include <string>
#include <vector>

#include "ringlab/ringlab.hpp"

using namespace ringlab;

// a % b as the hardware does it: under UBSan (./ringlab test --sanitize) the check would stop the
// run itself before the fault the divide-by-zero case is about.
__attribute__((noinline, no_sanitize("integer-divide-by-zero"))) int modulo(int a, int b) { return a % b; }

int main(int argc, char** argv) {
  Runtime rt(argc, argv);
  CLI::App app{"Programs that hang on purpose, for the watchdog's tests"};
  std::string which = "send-first-ring";
  app.add_option("--case", which,
                 "send-first-ring, missing-send, tag-mismatch, self-recv, skipped-collective, no-wait, "
                 "stray-send, negative-peer, too-long, null-view, divide-by-zero, wrong-tree, wrong-chain")
      ->check(CLI::IsMember({"send-first-ring", "missing-send", "tag-mismatch", "self-recv", "skipped-collective",
                             "no-wait", "stray-send", "negative-peer", "too-long", "null-view", "divide-by-zero",
                             "wrong-tree", "wrong-chain"}));
  if (auto code = rt.parse(app, argc, argv)) return *code;
  auto& comm = rt.comm();
  const int n = comm.size(), r = comm.rank();
  std::vector<float> out(2 << 20, 1.0f), in(2 << 20);  // 8 MiB: far beyond any eager limit

  if (which == "no-wait" || which == "stray-send") {
    int small[1] = {r}, got[1] = {-1};
    {
      trace::Collective tc(which == "no-wait" ? "forgets_wait" : "extra_send", small, 1);
      tc.at("exchange", 0);
      if (which == "no-wait" && r == 0) auto forgotten = comm.isend(View<int>(small, 1), 1);
      if (which == "no-wait" && r == 1) comm.recv(View<int>(got, 1), 0);
      if (which == "stray-send" && r == 0) comm.send(View<int>(small, 1), 1);  // nobody receives it
    }
    {  // a correct exchange: it must get rank 0's second message, not the stray one
      trace::Collective tc("correct_exchange", small, 1);
      small[0] = 100;
      if (r == 0) comm.send(View<int>(small, 1), 1);
      if (r == 1) {
        comm.recv(View<int>(got, 1), 0);
        if (which == "stray-send") std::printf("correct_exchange received %d\n", got[0]);
      }
    }
    comm.barrier();
    return 0;
  }

  if (which == "wrong-tree") {  // exercise 03's loop, the parent computed as v - 1
    WatchSchedule watch(binomial_tree_schedule(n, 0));
    trace::Collective tree("bcast_tree", out.data(), out.size());
    for (int k = 0, mask = 1; mask < n; ++k, mask <<= 1) {
      tree.at("bcast-tree", k);
      if (r < mask && r + mask < n) comm.send(View<float>(out), r + mask);
      else if (r >= mask && r < 2 * mask) comm.recv(View<float>(in), r - 1);  // the bug: r - mask
    }
    tree.end(in.data(), in.size());
  }
  if (which == "wrong-chain") {  // exercise 02's chain, the partial sum awaited from r + 1
    WatchSchedule watch(chain_schedule(n));
    trace::Collective chain("chain_sum", out.data(), out.size());
    chain.at("forward", r);
    if (r < n - 1) comm.recv(View<float>(in.data(), 1), r + 1);  // the bug: r > 0, from r - 1
    if (r < n - 1) comm.send(View<float>(out.data(), 1), r + 1);
    chain.end(in.data(), 1);
  }
  if (which == "wrong-tree" || which == "wrong-chain") {
    comm.barrier();
    print_once(comm, "no hang\n");
    return 0;
  }

  trace::Collective tc("broken_ring", out.data(), out.size());
  tc.at("exchange", 0);
  if (which == "send-first-ring") {
    comm.send(View<float>(out), (r + 1) % n);
    comm.recv(View<float>(in), (r - 1 + n) % n);
  } else if (which == "missing-send") {
    if (r == 1) comm.recv(View<float>(in), 2);
    comm.barrier();
  } else if (which == "skipped-collective") {
    if (r == 0) {
      trace::Collective average("average", in.data(), in.size());
      comm.recv(View<float>(in), 1);
    }
    comm.barrier();
  } else if (which == "self-recv") {
    if (r == 1) comm.recv(View<float>(in), 1);
    comm.barrier();
  } else if (which == "negative-peer") {  // r - 1 on rank 0: MPI would read -1 as "any rank"
    trace::Collective chain("broken_chain", in.data(), in.size());
    if (r == 0) comm.recv(View<float>(in), r - 1);
    comm.barrier();
  } else if (which == "null-view") {  // a broadcast of 0 elements, sent as a view of 1 made by hand
    std::vector<int> empty;
    trace::Collective tree("broken_tree", empty.data(), empty.size());
    tree.at("bcast-tree", 0);
    if (r == 0) comm.send(View<const int>(empty.data(), 1), 1);
    if (r == 1) comm.recv(View<int>(empty.data(), empty.size()), 0);
    comm.barrier();
  } else if (which == "divide-by-zero") {  // (volatile: the compiler cannot see the 0 coming)
    trace::Collective tree("broken_tree", in.data(), in.size());
    tree.at("bcast-tree", 0);
    volatile int root = 0;
    if (r == 0) std::printf("peer %d\n", modulo(r + 1, root));
    comm.barrier();
  } else if (which == "too-long") {  // 8 elements into a buffer of 4: MPI_ERR_TRUNCATE, explained
    if (r == 0) comm.send(View<float>(out.data(), 8), 1);
    if (r == 1) comm.recv(View<float>(in.data(), 4), 0);
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
