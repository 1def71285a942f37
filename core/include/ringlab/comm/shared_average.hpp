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
//   wait until every rank says "my slice is final"                (a flag per rank and slice)
//   take the next piece of the slice nobody has taken yet        (a shared counter)
//     for i in the piece:  v = (g_0[i] + g_1[i] + ... + g_n-1[i]) / n;  g_j[i] = v for every j
//     count the piece as done                                    (another shared counter)
//   until no piece is left; the slice is averaged everywhere once every piece is done.
//
// Each element is read once from each rank's gradient and written once into each: no copy
// through the kernel, no scratch buffer, no handshake. This is how collectives within one node
// work where processes share memory (NCCL's and Open MPI's shared-memory collectives); between
// hosts the ring of lesson 05 is still the way.
//
// Who averages: the ranks that wait. A rank still computing its backward pass never stops to
// average; a rank that has finished it (and calls wait()) takes the pieces of every slice the
// others have finished too, while they go on computing. Pieces go to whoever asks first, not to
// a fixed owner, so the rank that would otherwise sit idle does the communication, and the
// slower rank finds it done. On a machine where every core computes (one per rank), that idle
// time is the only place communication can hide; averaging at every layer instead (the first
// version) interrupted the GEMMs and measured slower (docs/lesson08.md).
//
// No thread and no MPI call is needed for progress: the flags and counters are plain atomics in
// the shared memory. Slices are averaged in the order they are started, and every rank must
// start the same slices in the same order in a step (as for any collective).
//
//   SharedAverage avg(comm, count);          // collective; needs every rank on one host
//   View<float> g = avg.gradient();          // this rank's gradient: backward writes here
//   avg.new_step();
//   int t = avg.start(offset, count);        // that slice of g is final on this rank
//   avg.wait(t);                             // that slice is averaged on every rank
#pragma once
#include <mpi.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "ringlab/base/buffer.hpp"
#include "ringlab/comm/comm.hpp"

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
  // Until slice `ticket` is averaged on every rank: takes pieces of it (and of every slice
  // started before it), waiting for the other ranks where they are not ready yet. The first
  // wait() of a step tells the other ranks that this one is done computing.
  void wait(int ticket);
  void wait_all();  // every started slice
  // Seconds spent averaging pieces so far (the communication work, wherever it ran), and the
  // part of it done while some other rank was still computing (hidden behind its backward pass).
  double busy_seconds() const { return busy_s_; }
  double hidden_seconds() const { return hidden_s_; }

  static constexpr std::size_t kPiece = 16384;  // floats in a piece (64 KiB)

 private:
  // Per slice: a rank's "final" flag in its own piece of the window, and the two counters every
  // rank shares (rank 0's copy). Each holds the step it was last set in (the counters in their
  // top 32 bits), so nothing needs clearing between steps.
  struct Slot {
    std::atomic<std::int64_t> ready;  // this rank's slice is final in step `ready`
    std::atomic<std::uint64_t> taken;  // rank 0's: step << 32 | pieces handed out so far
    std::atomic<std::uint64_t> done;   // rank 0's: step << 32 | pieces averaged so far
  };
  // Per rank, in front of its slots: the step in which it last started waiting.
  struct alignas(64) RankState {
    std::atomic<std::int64_t> waiting;
  };
  struct Slice {
    std::size_t offset = 0, count = 0, pieces = 0;
    std::int64_t call = 0;  // the trace's number for this slice's averaging
  };
  static constexpr int kMaxSlices = 4096;  // per step: more tensors than any lesson 08 model

  Slot& slot(int rank, int ticket) { return slots_[static_cast<std::size_t>(rank)][ticket]; }
  bool all_ready(int ticket);
  bool all_done(int ticket);
  void take_pieces(int ticket);  // averages pieces of the slice until none is left to take
  bool others_computing();       // some rank has not started waiting in this step
  void average_piece(int ticket, std::size_t piece);
  // Until (this->*met)(ticket); `what` the others must do, for the line of a run that hangs.
  void spin_until(bool (SharedAverage::*met)(int), int ticket, const char* what);
  void too_long(double waited, const char* what, int ticket);  // one line, then every rank stops
  // The trace's begin (started here) or end (seen complete here) of a slice's averaging, at
  // one instant, or the reduce of `bytes` of it since t0 (a piece averaged here).
  void trace_slice(trace::Op op, int ticket, double t0 = 0, std::size_t bytes = 0);

  MPI_Win win_ = MPI_WIN_NULL;
  int n_ = 1, rank_ = 0;
  std::size_t count_ = 0;
  float* mine_ = nullptr;
  std::vector<float*> gradient_;  // every rank's gradient, mapped into this process
  std::vector<Slot*> slots_;      // every rank's slots
  std::vector<RankState*> state_;  // every rank's state
  std::vector<Slice> slices_;     // this step's started slices, by ticket
  int taking_ = 0;                // slices below this: no piece left to take
  int ended_ = 0;                 // slices below this: seen averaged on every rank
  std::int64_t step_ = 0;
  std::int64_t calls_ = 0;  // slices started so far in the run
  double busy_s_ = 0, hidden_s_ = 0;
};

}  // namespace ringlab
