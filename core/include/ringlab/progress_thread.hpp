// A background thread that runs communication while the training thread computes: how the kit
// overlaps allreduces with the backward pass (lesson 08). Horovod does the same: one
// background thread performs every collective, the training loop only queues them.
//
//   ProgressThread progress(comm);
//   int t = progress.start([&] { lesson06::average_gradients(comm, slice); });  // returns at once
//   ... go on computing ...
//   progress.wait_all();                                   // every queued job has finished
//
// Why a thread: an MPI transfer moves only while some thread is inside an MPI call. Open MPI
// sends a large message in pieces (a handshake first, then the data), and each piece advances
// when the program calls MPI again: an MPI_Isend followed by 3 ms of BLAS moves nothing until
// the next MPI_Test or MPI_Wait. The alternative, test calls sprinkled between the layers,
// advances the transfers only at those few points; the thread advances them all the time.
//
// Jobs run one at a time, in the order they were queued, and every rank must queue the same
// jobs in the same order (as for any collective): the backward pass produces gradients in the
// same order on every rank, so a scheduler that queues in that order is safe.
//
// MPI calls come from two threads, never at once: the owner calls MPI only after wait_all()
// (Runtime asks MPI for MPI_THREAD_SERIALIZED). While the owner computes, the thread's waits
// poll with short sleeps instead of spinning, so that the core the two threads share is left
// to the computation; once the owner waits, the thread spins to finish as fast as possible.
#pragma once
#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

#include "ringlab/comm.hpp"

namespace ringlab {

class ProgressThread {
 public:
  // `poll_pause_us`: the sleep between two MPI_Test calls of a wait while the owner computes.
  explicit ProgressThread(Communicator& comm, int poll_pause_us = 20);
  ~ProgressThread();  // finishes the queued jobs, then stops the thread
  ProgressThread(const ProgressThread&) = delete;
  ProgressThread& operator=(const ProgressThread&) = delete;

  // Queues `job` and returns at once with its ticket (0, 1, 2, ... in queueing order).
  int start(std::function<void()> job);
  void wait(int ticket);  // until job `ticket` (and every job queued before it) has finished
  void wait_all();        // until every queued job has finished
  // Seconds the thread has spent running jobs so far (communication time, hidden or not).
  double busy_seconds();

 private:
  void run();
  std::mutex mutex_;
  std::condition_variable work_, done_;
  std::deque<std::function<void()>> jobs_;
  int queued_ = 0, finished_ = 0;
  bool stop_ = false;
  double busy_s_ = 0;
  std::atomic<int> pause_us_;  // 0 while the owner waits: spin
  const int poll_pause_us_;
  std::thread thread_;
};

}  // namespace ringlab
