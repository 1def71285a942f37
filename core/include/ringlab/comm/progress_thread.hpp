// A background thread that runs communication while the training thread computes: how the kit
// overlaps allreduces with the backward pass (lesson 08). Horovod does the same: one
// background thread performs every collective, the training loop only queues them.
//
//   ProgressThread progress(comm, ProgressThread::Sharing::poll);
//   int t = progress.start([&] { lesson06::average_gradients(comm, slice); });  // returns at once
//   ... go on computing (with Sharing::handover: progress.lend_core() between two layers) ...
//   progress.wait_all();                                   // every queued job has finished
//
// Why a thread: an MPI transfer moves only while some thread is inside an MPI call. Open MPI
// sends a large message in pieces (a handshake first, then the data), and each piece advances
// when the program calls MPI again: an MPI_Isend followed by 3 ms of BLAS moves nothing until
// the next MPI_Test or MPI_Wait. The thread keeps the ring's code in one readable function (it
// waits where the ring waits), instead of a state machine advanced by test calls.
//
// Jobs run one at a time, in the order they were queued, and every rank must queue the same
// jobs in the same order (as for any collective): the backward pass produces gradients in the
// same order on every rank, so a scheduler that queues in that order is safe.
//
// MPI calls come from two threads, never at once: the owner calls MPI only after wait_all()
// (Runtime asks MPI for MPI_THREAD_SERIALIZED). When the owner waits, the thread spins through
// its transfers as fast as it can. While the owner computes, the thread must not take the core
// from it when they share one, and there are two ways (`Sharing`):
//   poll      between two tests of a transfer, the thread sleeps `poll_pause_us`. Right where the
//             thread has a core of its own; sharing one, every wake-up interrupts a GEMM.
//   handover  the thread runs only when the owner hands it the core: lend_core(), called between
//             two layers, returns once every job is done or has waited `poll_pause_us` for a
//             transfer that has not arrived. Transfers advance only at those points, but the
//             GEMMs are never cut: right where each rank has one core (docs/lesson08.md).
#pragma once
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

#include "ringlab/comm/comm.hpp"

namespace ringlab {

class ProgressThread {
 public:
  enum class Sharing { poll, handover };
  // `poll_pause_us`: while the owner computes, the sleep between two tests of a transfer
  // (Sharing::poll), or how long the thread tests before it gives a lent core back (handover).
  ProgressThread(Communicator& comm, Sharing sharing, int poll_pause_us = 20);
  ~ProgressThread();  // finishes the queued jobs, then stops the thread
  ProgressThread(const ProgressThread&) = delete;
  ProgressThread& operator=(const ProgressThread&) = delete;

  // Queues `job` and returns at once with its ticket (0, 1, 2, ... in queueing order).
  int start(std::function<void()> job);
  // Sharing::handover: lets the thread run until its jobs are done or wait for a transfer, then
  // returns (at once when nothing is queued). Sharing::poll: returns at once.
  void lend_core();
  void wait(int ticket);  // until job `ticket` (and every job queued before it) has finished
  void wait_all();        // until every queued job has finished
  // Seconds the thread has spent running jobs so far (communication time, hidden or not; with
  // Sharing::handover, not counting the time it gave the core back).
  double busy_seconds();

 private:
  void run();
  void between_tests();  // on the thread, between two tests of a transfer
  std::mutex mutex_;
  std::condition_variable changed_;  // a job was queued or finished, the core changed hands
  std::deque<std::function<void()>> jobs_;
  int queued_ = 0, finished_ = 0;
  bool stop_ = false;
  bool owner_waits_ = false;  // the owner is blocked in wait(): the thread may spin
  bool thread_turn_ = false;  // handover: the owner has lent its core
  double busy_s_ = 0, parked_s_ = 0;
  std::chrono::steady_clock::time_point lent_at_;  // handover: when the owner last lent its core
  const Sharing sharing_;
  const int poll_pause_us_;
  std::thread thread_;
};

}  // namespace ringlab
