// The progress thread (see progress_thread.hpp): a queue of jobs, one worker, one condition
// variable that says something changed (a job queued or finished, the core handed over).
#include "ringlab/comm/progress_thread.hpp"

#include <sys/prctl.h>

#include <chrono>
#include <stdexcept>

#include "ringlab/comm/watchdog.hpp"

namespace ringlab {

namespace {
double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

ProgressThread::ProgressThread(Communicator&, Sharing sharing, int poll_pause_us)
    : sharing_(sharing), poll_pause_us_(poll_pause_us) {
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
  changed_.notify_all();
  thread_.join();
}

int ProgressThread::start(std::function<void()> job) {
  std::lock_guard<std::mutex> lock(mutex_);
  jobs_.push_back(std::move(job));
  const int ticket = queued_++;
  // handover: the job waits for the core (lend_core or wait); waking the thread now would only
  // cost the owner two context switches.
  if (sharing_ == Sharing::poll) changed_.notify_all();
  return ticket;
}

void ProgressThread::lend_core() {
  if (sharing_ != Sharing::handover) return;
  std::unique_lock<std::mutex> lock(mutex_);
  if (finished_ == queued_) return;  // nothing to advance
  thread_turn_ = true;
  lent_at_ = std::chrono::steady_clock::now();
  changed_.notify_all();
  changed_.wait(lock, [&] { return !thread_turn_; });  // the thread gives it back
}

void ProgressThread::wait(int ticket) {
  std::unique_lock<std::mutex> lock(mutex_);
  owner_waits_ = true;  // the owner has nothing else to do: let the thread spin through its waits
  changed_.notify_all();
  changed_.wait(lock, [&] { return finished_ > ticket; });
  owner_waits_ = false;
}

// queued_ changes only in start(), on the owner's thread: the caller's own.
void ProgressThread::wait_all() { wait(queued_ - 1); }

double ProgressThread::busy_seconds() {
  std::lock_guard<std::mutex> lock(mutex_);
  return busy_s_ - parked_s_;
}

// Between two tests of a transfer that has not finished yet.
void ProgressThread::between_tests() {
  std::unique_lock<std::mutex> lock(mutex_);
  if (owner_waits_) return;  // the owner waits for the jobs: the thread may have the core
  if (sharing_ == Sharing::poll) {
    lock.unlock();
    std::this_thread::sleep_for(std::chrono::microseconds(poll_pause_us_));
    return;
  }
  // handover: give the core back to the owner, and sleep until it is lent again or the owner
  // waits. Keep testing for poll_pause_us first: the other ranks reach the same point of their
  // backward pass at about the same time, and their next message is often microseconds away.
  if (seconds_since(lent_at_) < poll_pause_us_ * 1e-6) return;
  const auto t0 = std::chrono::steady_clock::now();
  thread_turn_ = false;
  changed_.notify_all();
  changed_.wait(lock, [&] { return thread_turn_ || owner_waits_; });
  parked_s_ += seconds_since(t0);
}

void ProgressThread::run() {
  // Sleep as long as asked, not the 50 us Linux adds by default to round timers up: a 20 us
  // pause between tests would become 70 us, and every message would wait that long.
  prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);  // 1 us
  watchdog::set_pause_between_tests([this] { between_tests(); });
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      // handover: a job starts only on the owner's lent core, or while the owner waits.
      auto may_run = [&] { return sharing_ == Sharing::poll || thread_turn_ || owner_waits_; };
      changed_.wait(lock, [&] { return stop_ || (!jobs_.empty() && may_run()); });
      if (jobs_.empty()) return;  // stop_, and nothing left to do
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    const auto t0 = std::chrono::steady_clock::now();
    job();
    const double took = seconds_since(t0);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      busy_s_ += took;
      ++finished_;
      if (jobs_.empty()) thread_turn_ = false;  // all done: the core goes back to the owner
    }
    changed_.notify_all();
  }
}

}  // namespace ringlab
