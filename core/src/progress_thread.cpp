// The progress thread (see progress_thread.hpp): a queue of jobs, one worker, two condition
// variables (work arrived; a job finished).
#include "ringlab/progress_thread.hpp"

#include <sys/prctl.h>

#include <chrono>
#include <stdexcept>

#include "ringlab/watchdog.hpp"

namespace ringlab {

ProgressThread::ProgressThread(Communicator&, int poll_pause_us)
    : pause_us_(poll_pause_us), poll_pause_us_(poll_pause_us) {
  int level = MPI_THREAD_SINGLE;
  MPI_Query_thread(&level);
  if (level < MPI_THREAD_SERIALIZED)
    throw std::runtime_error("a progress thread needs MPI_THREAD_SERIALIZED; this MPI gave a lower level");
  thread_ = std::thread([this] { run(); });
}

ProgressThread::~ProgressThread() {
  wait_all();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  work_.notify_one();
  thread_.join();
}

int ProgressThread::start(std::function<void()> job) {
  std::lock_guard<std::mutex> lock(mutex_);
  pause_us_ = poll_pause_us_;  // the owner goes back to computing: poll politely
  jobs_.push_back(std::move(job));
  const int ticket = queued_++;
  work_.notify_one();
  return ticket;
}

void ProgressThread::wait(int ticket) {
  std::unique_lock<std::mutex> lock(mutex_);
  pause_us_ = 0;  // the owner has nothing else to do: let the thread spin through its waits
  done_.wait(lock, [&] { return finished_ > ticket; });
}

void ProgressThread::wait_all() {
  std::unique_lock<std::mutex> lock(mutex_);
  pause_us_ = 0;
  done_.wait(lock, [&] { return finished_ == queued_; });
}

double ProgressThread::busy_seconds() {
  std::lock_guard<std::mutex> lock(mutex_);
  return busy_s_;
}

void ProgressThread::run() {
  // Sleep as long as asked, not the 50 us Linux adds by default to round timers up: a 20 us
  // pause between tests would become 70 us, and every message would wait that long.
  prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);  // 1 us
  watchdog::set_poll_pause(&pause_us_);
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      work_.wait(lock, [&] { return stop_ || !jobs_.empty(); });
      if (jobs_.empty()) return;  // stop_, and nothing left to do
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    const auto t0 = std::chrono::steady_clock::now();
    job();
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      busy_s_ += took;
      ++finished_;
    }
    done_.notify_all();
  }
}

}  // namespace ringlab
