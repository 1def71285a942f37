// Averaging a gradient through shared memory: the ranks of one host read each other's gradient
// in place instead of sending it (lesson 08's --allreduce shared).
//
// A message between two processes of one host is a copy: Open MPI's shared-memory transport has
// the receiver's kernel read the sender's memory (CMA), and the ring then adds what arrived, so
// each element is copied and added on every step of the ring. But processes of one host can map
// the same memory: MPI-3 gives every rank a piece of one shared "window"
// (MPI_Win_allocate_shared), and every rank can read and write every piece. With the gradients
// in that window, an allreduce needs no message at all:
//
//   rank r owns part r of the slice (chunk_of(count, n, r), the ring's chunks):
//     wait until every rank says "my slice is final"            (a flag per rank and slice)
//     for i in part r:  v = (g_0[i] + g_1[i] + ... + g_n-1[i]) / n;  g_j[i] = v for every j
//     say "my part is averaged"                                 (another flag)
//   the slice is averaged on every rank once every rank has said so.
//
// Each element is read once from each rank's gradient and written once into each: no copy
// through the kernel, no scratch buffer, no handshake. This is how collectives within one node
// work where processes share memory (NCCL's and Open MPI's shared-memory collectives); between
// hosts the ring of lesson 05 is still the way.
//
// No thread and no MPI call is needed for progress: the flags are plain atomics in the shared
// memory, and a rank does its part whenever it looks (poll(), between two layers) and finds the
// other ranks ready. Slices are averaged in the order they are started, and every rank must
// start the same slices in the same order in a step (as for any collective).
//
//   SharedAverage avg(comm, count);          // collective; needs every rank on one host
//   View<float> g = avg.gradient();          // this rank's gradient: backward writes here
//   avg.new_step();
//   int t = avg.start(offset, count);        // that slice of g is final on this rank
//   avg.poll();                              // between two layers: never blocks
//   avg.wait(t);                             // that slice is averaged on every rank
#pragma once
#include <mpi.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "ringlab/buffer.hpp"
#include "ringlab/comm.hpp"

namespace ringlab {

class SharedAverage {
 public:
  // Whether every rank of `comm` is on one host (the shared window needs that). Collective.
  static bool possible(Communicator& comm);
  // Allocates the window: `count` floats of gradient per rank and its flags. Collective; every
  // rank must be on one host (possible()).
  SharedAverage(Communicator& comm, std::size_t count);
  ~SharedAverage();  // frees the window (collective: every rank destroys its own together)
  SharedAverage(const SharedAverage&) = delete;
  SharedAverage& operator=(const SharedAverage&) = delete;

  View<float> gradient() { return View<float>(mine_, count_); }
  void new_step();  // before the first start() of a step: tickets count from 0 again
  // Slice [offset, offset + count) of this rank's gradient is final: returns its ticket
  // (0, 1, 2, ... in this step). Does no work itself.
  int start(std::size_t offset, std::size_t count);
  // Averages this rank's part of every started slice whose every rank is ready; never waits.
  void poll();
  // Until slice `ticket` is averaged on every rank: does this rank's part of it (and of every
  // slice started before it), waiting for the others where they are not ready yet.
  void wait(int ticket);
  void wait_all();  // every started slice
  // Seconds spent averaging and waiting for the other ranks so far (the communication time).
  double busy_seconds() const { return busy_s_; }

 private:
  // One flag per rank and slice, in that rank's piece of the window. A flag holds the step
  // number it was last set in, so nothing needs clearing between steps.
  struct Flags {
    std::atomic<std::int64_t> ready;  // the rank's slice is final in this step
    std::atomic<std::int64_t> done;   // the rank has averaged its part of the slice
  };
  struct Slice {
    std::size_t offset = 0, count = 0;
    std::int64_t call = 0;  // the trace's number for this slice's averaging
  };
  static constexpr int kMaxSlices = 4096;  // per step: more tensors than any lesson 08 model

  Flags& flags(int rank, int ticket) { return flags_[static_cast<std::size_t>(rank)][ticket]; }
  bool all_ready(int ticket);
  void average_my_part(int ticket);
  void spin_until(int ticket, bool done_flags);  // until every rank's flag says this step
  bool all_done(int ticket);
  void trace_end(int ticket);  // the trace's end of a slice's averaging, seen complete here

  MPI_Win win_ = MPI_WIN_NULL;
  int n_ = 1, rank_ = 0;
  std::size_t count_ = 0;
  float* mine_ = nullptr;
  std::vector<float*> gradient_;  // every rank's gradient, mapped into this process
  std::vector<Flags*> flags_;     // every rank's flags
  std::vector<Slice> slices_;     // this step's started slices, by ticket
  int averaged_ = 0;              // tickets below this: my part is done
  int ended_ = 0;                 // tickets below this: seen averaged on every rank
  std::int64_t calls_ = 0;        // slices started so far in the run
  std::int64_t step_ = 0;
  double busy_s_ = 0;
};

}  // namespace ringlab
