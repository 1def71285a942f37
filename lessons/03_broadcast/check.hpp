// Lesson 03's --check: every broadcast against MPI_Bcast, every root, several sizes, through
// the core's check-and-benchmark harness. The list of broadcasts here is also what --bench
// times (bench.hpp).
#pragma once
#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <random>
#include <vector>

#include "broadcast.hpp"
#include "ringlab/ringlab.hpp"

namespace lesson03 {

// MPI's own broadcast: the reference the kit's broadcasts are checked and timed against.
template <class T> void mpi_broadcast(ringlab::Communicator& comm, View<T> buf, int root) {
  using namespace ringlab;
  if (buf.where() == Where::device) {  // this MPI is not CUDA-aware: it is handed host memory only
    std::vector<T> host(buf.size());
    copy(View<T>(host), View<const T>(buf));
    mpi_broadcast(comm, View<T>(host), root);
    copy(buf, View<const T>(host));
    return;
  }
  MPI_Bcast(buf.data(), static_cast<int>(buf.size()), mpi_datatype(dtype_of<T>()), root, comm.raw());
}

// What the harness (core/include/ringlab/check/harness.hpp) checks and times: the broadcasts, in
// place, every root; the root's data reproducible, every other rank's garbage that must be
// overwritten; MPI_Bcast's result the reference, matched exactly. busbw = algbw (nccl-tests).
// Under --transport nccl, ncclBroadcast joins them as the library row.
template <class T>
ringlab::harness::Collective<T> broadcasts(ringlab::Communicator& comm, std::size_t segment_bytes) {
  using namespace ringlab;
  const std::size_t seg = std::max<std::size_t>(1, segment_bytes / sizeof(T));
  auto in_place = [](void (*f)(Communicator&, View<T>, int)) {
    return [f](Communicator& c, View<const T>, View<T> buf, int root) { f(c, buf, root); };
  };
  harness::Collective<T> c;
  c.impls = {
      {"linear", 1.0, in_place(lesson03::linear_broadcast<T>)},
      {"tree", 1.0, in_place(lesson03::tree_broadcast<T>)},
      {"chain", 1.0,
       [seg](Communicator& comm, View<const T>, View<T> buf, int root) {
         lesson03::chain_broadcast<T>(comm, buf, root, seg);
       }},
      {"mpi", 1.0, in_place(mpi_broadcast<T>), comm.where() == Where::device ? "MPI on host copies" : ""}};
  if (comm.transport() == Transport::nccl && comm.where() == Where::device)
    c.impls.push_back({"nccl", 1.0, in_place(nccl_broadcast<T>), "NCCL", /*device_only=*/true});
  c.input = [](std::vector<T>& v, int rank, int root) {
    std::mt19937_64 gen(rank == root ? 1234 : 99);
    for (auto& x : v)
      x = static_cast<T>(std::uniform_int_distribution<int>(-1000, 1000)(gen)) / (rank == root ? 1 : 3);
  };
  c.expected = [](Communicator& comm, const std::vector<T>& in, std::vector<T>& out, int root) {
    out = in;
    mpi_broadcast<T>(comm, View<T>(out), root);
  };
  c.rooted = true;
  c.out_of_place = false;
  c.terms = 0;  // a broadcast copies: every element exactly the root's
  // The tree must send and receive exactly as the picture in broadcast.hpp says, round by
  // round: --check traces it and names the first round where it does not.
  c.scheduled = "tree";
  c.schedule = binomial_tree_schedule;
  return c;
}

// The sizes: 0, 1, n-1, n+1 and 1000003 elements, or only --count when given. Returns the number
// of wrong elements over all ranks.
template <class T> long long check_broadcasts(ringlab::Communicator& comm, std::size_t segment_bytes,
                                              const ringlab::CommonOptions& opt, bool count_given) {
  const int n = comm.size();
  std::vector<std::size_t> counts{0, 1, std::size_t(std::max(n - 1, 1)), std::size_t(n + 1), 1000003};
  if (count_given) counts = {static_cast<std::size_t>(opt.count)};
  return ringlab::harness::check(comm, broadcasts<T>(comm, segment_bytes), counts);
}

}  // namespace lesson03
