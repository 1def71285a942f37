// Averaging through an MPI-3 shared-memory window (shared_average.hpp says what and why).
#include "ringlab/shared_average.hpp"

#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <new>
#include <stdexcept>
#include <string>

#include "ringlab/chunks.hpp"
#include "ringlab/trace.hpp"
#include "ringlab/watchdog.hpp"

namespace ringlab {

namespace {
using clock_type = std::chrono::steady_clock;
double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}
// The flags take the front of each rank's piece, the gradient starts on the next page.
constexpr std::size_t kPage = 4096;
}  // namespace

bool SharedAverage::possible(Communicator& comm) { return comm.local_size() == comm.size(); }

SharedAverage::SharedAverage(Communicator& comm, std::size_t count)
    : n_(comm.size()), rank_(comm.rank()), count_(count) {
  if (!possible(comm)) throw std::invalid_argument("SharedAverage: the ranks are not all on one host");
  const std::size_t flag_bytes = (sizeof(Flags) * kMaxSlices + kPage - 1) / kPage * kPage;
  // noncontig: each rank's piece starts on a page of its own (and near its core, where the
  // machine has several memory nodes), instead of all pieces back to back.
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "alloc_shared_noncontig", "true");
  void* base = nullptr;
  MPI_Win_allocate_shared(static_cast<MPI_Aint>(flag_bytes + count * sizeof(float)), 1, info, comm.raw(), &base,
                          &win_);
  MPI_Info_free(&info);
  // Every rank sets up its own flags ("never set"), then the others may look at them.
  auto* own = static_cast<Flags*>(base);
  for (int i = 0; i < kMaxSlices; ++i) {
    new (&own[i].ready) std::atomic<std::int64_t>(0);
    new (&own[i].done) std::atomic<std::int64_t>(0);
  }
  // A passive epoch for the whole run: ranks load and store each other's memory directly, the
  // flags' atomics order those accesses (a flag is set only after the data it announces).
  MPI_Win_lock_all(MPI_MODE_NOCHECK, win_);
  MPI_Win_sync(win_);
  MPI_Barrier(comm.raw());
  for (int r = 0; r < n_; ++r) {
    MPI_Aint size = 0;
    int unit = 0;
    void* piece = nullptr;
    MPI_Win_shared_query(win_, r, &size, &unit, &piece);
    flags_.push_back(static_cast<Flags*>(piece));
    gradient_.push_back(reinterpret_cast<float*>(static_cast<char*>(piece) + flag_bytes));
  }
  mine_ = gradient_[static_cast<std::size_t>(rank_)];
  std::fill(mine_, mine_ + count_, 0.0f);
}

SharedAverage::~SharedAverage() {
  if (win_ == MPI_WIN_NULL) return;
  MPI_Win_unlock_all(win_);
  MPI_Win_free(&win_);
}

void SharedAverage::new_step() {
  ++step_;
  slices_.clear();
  averaged_ = ended_ = 0;
}

int SharedAverage::start(std::size_t offset, std::size_t count) {
  const int ticket = static_cast<int>(slices_.size());
  if (ticket >= kMaxSlices || offset + count > count_)
    throw std::out_of_range("SharedAverage::start: slice " + std::to_string(ticket) + " [" +
                            std::to_string(offset) + ", +" + std::to_string(count) + ") out of range");
  slices_.push_back({offset, count, calls_++});
  // The slice's data is written; release: whoever sees the flag sees the data too.
  flags(rank_, ticket).ready.store(step_, std::memory_order_release);
  if (trace::enabled()) {
    // Several slices are in flight at once, so no Collective scope: begin and end by hand.
    trace::Event e;
    e.op = trace::Op::begin;
    e.coll = "shared_allreduce";
    e.call = slices_.back().call;
    e.chunk = ticket;
    e.count = count;
    e.dtype = "float32";
    e.t0 = e.t1 = trace::now_us();
    trace::record(std::move(e));
  }
  return ticket;
}

bool SharedAverage::all_ready(int ticket) {
  for (int r = 0; r < n_; ++r)
    if (flags(r, ticket).ready.load(std::memory_order_acquire) < step_) return false;
  return true;
}

// My part of slice `ticket`, read from every rank's gradient, averaged, written into every one.
// In blocks, so that the compiler vectorizes the sums; ranks are added in rank order, so every
// rank computes the same value the same way (a part is computed once, by its owner, anyway).
void SharedAverage::average_my_part(int ticket) {
  const auto t0 = clock_type::now();
  const double trace_t0 = trace::enabled() ? trace::now_us() : 0;
  const Slice& s = slices_[static_cast<std::size_t>(ticket)];
  const Chunk part = chunk_of(s.count, n_, rank_);
  const float inv = 1.0f / static_cast<float>(n_);
  constexpr std::size_t kBlock = 1024;
  float sum[kBlock];
  for (std::size_t i = s.offset + part.offset, end = i + part.count; i < end; i += kBlock) {
    const std::size_t len = std::min(kBlock, end - i);
    const float* __restrict g0 = gradient_[0] + i;
    for (std::size_t k = 0; k < len; ++k) sum[k] = g0[k];
    for (int r = 1; r < n_; ++r) {
      const float* __restrict g = gradient_[static_cast<std::size_t>(r)] + i;
      for (std::size_t k = 0; k < len; ++k) sum[k] += g[k];
    }
    for (std::size_t k = 0; k < len; ++k) sum[k] *= inv;
    for (int r = 0; r < n_; ++r) std::copy(sum, sum + len, gradient_[static_cast<std::size_t>(r)] + i);
  }
  flags(rank_, ticket).done.store(step_, std::memory_order_release);
  busy_s_ += seconds_since(t0);
  if (trace::enabled()) {
    trace::Event e;
    e.op = trace::Op::reduce;
    e.coll = "shared_allreduce";
    e.call = s.call;
    e.phase = "average";
    e.chunk = ticket;
    e.bytes = part.count * sizeof(float);
    e.t0 = trace_t0;
    e.t1 = trace::now_us();
    trace::record(std::move(e));
  }
}

void SharedAverage::poll() {
  // In ticket order: a later slice waits for an earlier one (every rank does them in order).
  while (averaged_ < static_cast<int>(slices_.size()) && all_ready(averaged_)) average_my_part(averaged_++);
  // Slices whose every part is done: averaged everywhere (the trace's end; the step still
  // calls wait() for them, which then returns at once).
  while (ended_ < averaged_ && all_done(ended_)) trace_end(ended_++);
}

// Spins on the other ranks' flags. They are set within microseconds when the ranks run in step;
// on a machine with fewer cores than ranks the spinning rank gives its core away between looks.
// A rank that never sets its flag (it crashed, or started other slices) stops the run with one
// line after the watchdog's threshold instead of spinning forever.
void SharedAverage::spin_until(int ticket, bool done_flags) {
  const auto t0 = clock_type::now();
  const double limit = watchdog::threshold_s();
  for (long spins = 0;; ++spins) {
    int missing = -1;
    for (int r = 0; r < n_ && missing < 0; ++r) {
      const auto& f = done_flags ? flags(r, ticket).done : flags(r, ticket).ready;
      if (f.load(std::memory_order_acquire) < step_) missing = r;
    }
    if (missing < 0) break;
    if (spins > 2000) sched_yield();
    if (spins % 1024 == 1023 && limit > 0 && seconds_since(t0) > limit) {
      std::fprintf(stderr,
                   "error: rank %d waited %.0f s for rank %d to %s slice %d of step %lld (shared-memory "
                   "averaging): is that rank stuck, or did the ranks start different slices?\n",
                   rank_, seconds_since(t0), missing, done_flags ? "average its part of" : "finish", ticket,
                   static_cast<long long>(step_));
      MPI_Abort(MPI_COMM_WORLD, 3);
    }
  }
  busy_s_ += seconds_since(t0);
}

void SharedAverage::wait(int ticket) {
  if (ticket < 0 || ticket >= static_cast<int>(slices_.size()))
    throw std::out_of_range("SharedAverage::wait: ticket " + std::to_string(ticket) + " was not started");
  while (averaged_ <= ticket) {
    spin_until(averaged_, /*done_flags=*/false);
    average_my_part(averaged_++);
  }
  spin_until(ticket, /*done_flags=*/true);
  while (ended_ <= ticket) trace_end(ended_++);
}

bool SharedAverage::all_done(int ticket) {
  for (int r = 0; r < n_; ++r)
    if (flags(r, ticket).done.load(std::memory_order_acquire) < step_) return false;
  return true;
}

void SharedAverage::trace_end(int ticket) {
  if (!trace::enabled()) return;
  trace::Event e;
  e.op = trace::Op::end;
  e.coll = "shared_allreduce";
  e.call = slices_[static_cast<std::size_t>(ticket)].call;
  e.chunk = ticket;
  e.count = slices_[static_cast<std::size_t>(ticket)].count;
  e.dtype = "float32";
  e.t0 = e.t1 = trace::now_us();
  trace::record(std::move(e));
}

void SharedAverage::wait_all() {
  for (int t = 0; t < static_cast<int>(slices_.size()); ++t) wait(t);
}

}  // namespace ringlab
