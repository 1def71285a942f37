// Averaging through an MPI-3 shared-memory window (shared_average.hpp says what and why).
#include "ringlab/comm/shared_average.hpp"

#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <new>
#include <stdexcept>
#include <string>

#include "ringlab/trace/trace.hpp"
#include "ringlab/comm/watchdog.hpp"

namespace ringlab {

namespace {
using clock_type = std::chrono::steady_clock;
double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}
// The slots take the front of each rank's piece of the window, the gradient starts on the next
// page after them.
constexpr std::size_t kPage = 4096;

// A counter of this step: the step in the top 32 bits, the count below. A counter last set in
// an earlier step counts 0 in this one.
std::uint64_t tagged(std::int64_t step, std::uint64_t count) {
  return static_cast<std::uint64_t>(step) << 32 | count;
}
std::uint64_t count_in_step(std::uint64_t value, std::int64_t step) {
  const auto tag = static_cast<std::int64_t>(value >> 32);
  return tag < step ? 0 : tag > step ? ~std::uint64_t{0} : value & 0xffffffffu;
}
// Adds one to a tagged counter; returns the count before (one compare-and-swap loop: only the
// ranks of one host ever contend for it).
std::uint64_t increment(std::atomic<std::uint64_t>& counter, std::int64_t step, std::uint64_t limit) {
  std::uint64_t seen = counter.load(std::memory_order_acquire);
  for (;;) {
    const std::uint64_t before = count_in_step(seen, step);
    if (before >= limit) return before;  // nothing left (or a later step already: never here)
    if (counter.compare_exchange_weak(seen, tagged(step, before + 1), std::memory_order_acq_rel))
      return before;
  }
}

constexpr std::size_t kLine = 64;  // RankState's alignment: one cache line
void* line_aligned(void* p) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  return reinterpret_cast<void*>((a + kLine - 1) / kLine * kLine);
}
}  // namespace

bool SharedAverage::possible(Communicator& comm) { return comm.local_size() == comm.size(); }

SharedAverage::SharedAverage(Communicator& comm, std::size_t count)
    : n_(comm.size()), rank_(comm.rank()), count_(count) {
  if (!possible(comm)) throw std::invalid_argument("SharedAverage: the ranks are not all on one host");
  const std::size_t slot_bytes = (sizeof(RankState) + sizeof(Slot) * kMaxSlices + kPage - 1) / kPage * kPage;
  // noncontig: each rank's piece starts on a page of its own (and near its core, where the
  // machine has several memory nodes), instead of all pieces back to back.
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "alloc_shared_noncontig", "true");
  void* base = nullptr;
  // MPI does not promise more than the alignment of a double for a rank's piece (Open MPI puts
  // it 8 bytes past a 64-byte line), but RankState is alignas(64): each piece is used from its
  // first 64-byte boundary, 64 bytes asked for on top. Pieces are mapped page-aligned in every
  // process, so every rank rounds a piece to the same place.
  MPI_Win_allocate_shared(static_cast<MPI_Aint>(kLine + slot_bytes + count * sizeof(float)), 1, info, comm.raw(),
                          &base, &win_);
  MPI_Info_free(&info);
  base = line_aligned(base);
  // Every rank sets up its own state and slots ("never set"), then the others may look at them.
  new (&static_cast<RankState*>(base)->waiting) std::atomic<std::int64_t>(0);
  auto* own = reinterpret_cast<Slot*>(static_cast<char*>(base) + sizeof(RankState));
  for (int i = 0; i < kMaxSlices; ++i) {
    new (&own[i].ready) std::atomic<std::int64_t>(0);
    new (&own[i].taken) std::atomic<std::uint64_t>(0);
    new (&own[i].done) std::atomic<std::uint64_t>(0);
  }
  // A passive epoch for the whole run: ranks load and store each other's memory directly, the
  // atomics order those accesses (a flag or counter is set only after the data it announces).
  MPI_Win_lock_all(MPI_MODE_NOCHECK, win_);
  MPI_Win_sync(win_);
  MPI_Barrier(comm.raw());
  for (int r = 0; r < n_; ++r) {
    MPI_Aint size = 0;
    int unit = 0;
    void* piece = nullptr;
    MPI_Win_shared_query(win_, r, &size, &unit, &piece);
    piece = line_aligned(piece);
    state_.push_back(static_cast<RankState*>(piece));
    slots_.push_back(reinterpret_cast<Slot*>(static_cast<char*>(piece) + sizeof(RankState)));
    gradient_.push_back(reinterpret_cast<float*>(static_cast<char*>(piece) + slot_bytes));
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
  taking_ = ended_ = 0;
}

int SharedAverage::start(std::size_t offset, std::size_t count) {
  const int ticket = static_cast<int>(slices_.size());
  if (ticket >= kMaxSlices || offset > count_ || count > count_ - offset)
    throw std::out_of_range("SharedAverage::start: slice " + std::to_string(ticket) + " [" +
                            std::to_string(offset) + ", +" + std::to_string(count) + ") out of range");
  slices_.push_back({offset, count, std::max<std::size_t>(1, (count + kPiece - 1) / kPiece), calls_++});
  // The slice's data is written; release: whoever sees the flag sees the data too.
  slot(rank_, ticket).ready.store(step_, std::memory_order_release);
  trace_slice(trace::Op::begin, ticket);
  return ticket;
}

bool SharedAverage::all_ready(int ticket) {
  return std::all_of(slots_.begin(), slots_.end(),
                     [&](Slot* s) { return s[ticket].ready.load(std::memory_order_acquire) >= step_; });
}

bool SharedAverage::all_done(int ticket) {
  const Slice& s = slices_[static_cast<std::size_t>(ticket)];
  return count_in_step(slot(0, ticket).done.load(std::memory_order_acquire), step_) >= s.pieces;
}

// One piece of a slice, read from every rank's gradient, averaged, written into every one. In
// blocks, so that the compiler vectorizes the sums; ranks are added in rank order, so the value
// does not depend on which rank took the piece.
void SharedAverage::average_piece(int ticket, std::size_t piece) {
  const Slice& s = slices_[static_cast<std::size_t>(ticket)];
  const std::size_t first = s.offset + piece * kPiece;
  // One rank: its gradient is already the average (the loop would only copy it onto itself).
  const std::size_t last = n_ > 1 ? std::min(first + kPiece, s.offset + s.count) : first;
  const double trace_t0 = trace::enabled() ? trace::now_us() : 0;
  const float inv = 1.0f / static_cast<float>(n_);
  constexpr std::size_t kBlock = 1024;
  float sum[kBlock];
  for (std::size_t i = first; i < last; i += kBlock) {
    const std::size_t len = std::min(kBlock, last - i);
    const float* __restrict g0 = gradient_[0] + i;
    for (std::size_t k = 0; k < len; ++k) sum[k] = g0[k];
    for (int r = 1; r < n_; ++r) {
      const float* __restrict g = gradient_[static_cast<std::size_t>(r)] + i;
      for (std::size_t k = 0; k < len; ++k) sum[k] += g[k];
    }
    for (std::size_t k = 0; k < len; ++k) sum[k] *= inv;
    for (int r = 0; r < n_; ++r) std::copy(sum, sum + len, gradient_[static_cast<std::size_t>(r)] + i);
  }
  increment(slot(0, ticket).done, step_, s.pieces);  // release: the piece's values come with it
  trace_slice(trace::Op::reduce, ticket, trace_t0, (last - first) * sizeof(float));
}

bool SharedAverage::others_computing() {
  return std::any_of(state_.begin(), state_.end(),
                     [&](RankState* s) { return s->waiting.load(std::memory_order_acquire) < step_; });
}

void SharedAverage::take_pieces(int ticket) {
  const Slice& s = slices_[static_cast<std::size_t>(ticket)];
  for (;;) {
    const std::uint64_t piece = increment(slot(0, ticket).taken, step_, s.pieces);
    if (piece >= s.pieces) return;  // every piece is taken (by this rank or another)
    const bool hidden = others_computing();
    const auto t0 = clock_type::now();
    average_piece(ticket, piece);
    const double seconds = seconds_since(t0);
    busy_s_ += seconds;
    if (hidden) hidden_s_ += seconds;
  }
}

// The spins below wait for the other ranks' flags and counters. They are set within
// microseconds when the ranks run in step; on a machine with fewer cores than ranks the spinning
// rank gives its core away between looks. A rank that never sets its flag (it crashed, or
// started other slices) stops the run with one line after the watchdog's threshold instead of
// spinning forever.
void SharedAverage::too_long(double waited, const char* what, int ticket) {
  int missing = -1;
  for (int r = 0; r < n_ && missing < 0; ++r)
    if (slot(r, ticket).ready.load(std::memory_order_acquire) < step_) missing = r;
  const std::string who = missing >= 0 ? "rank " + std::to_string(missing) : std::string("another rank");
  std::fprintf(stderr,
               "error: rank %d waited %.0f s for %s to %s slice %d of step %lld (shared-memory "
               "averaging): is that rank stuck, or did the ranks start different slices?\n",
               rank_, waited, who.c_str(), what, ticket, static_cast<long long>(step_));
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 3);
}

void SharedAverage::spin_until(bool (SharedAverage::*met)(int), int ticket, const char* what) {
  const auto t0 = clock_type::now();
  const double limit = watchdog::threshold_s();
  for (long spins = 0; !(this->*met)(ticket); ++spins) {
    if (spins > 2000) sched_yield();
    if (spins % 1024 == 1023 && limit > 0 && seconds_since(t0) > limit) too_long(seconds_since(t0), what, ticket);
  }
}

void SharedAverage::wait(int ticket) {
  if (ticket < 0 || ticket >= static_cast<int>(slices_.size()))
    throw std::out_of_range("SharedAverage::wait: ticket " + std::to_string(ticket) + " was not started");
  state_[static_cast<std::size_t>(rank_)]->waiting.store(step_, std::memory_order_release);
  // In ticket order: every rank takes pieces of an earlier slice before a later one.
  while (taking_ <= ticket) {
    spin_until(&SharedAverage::all_ready, taking_, "finish");
    take_pieces(taking_++);
  }
  spin_until(&SharedAverage::all_done, ticket, "average its pieces of");
  while (ended_ <= ticket) trace_slice(trace::Op::end, ended_++);
}

void SharedAverage::wait_all() {
  for (int t = 0; t < static_cast<int>(slices_.size()); ++t) wait(t);
}

// Several slices are in flight at once, so no trace::Collective scope: their events by hand.
void SharedAverage::trace_slice(trace::Op op, int ticket, double t0, std::size_t bytes) {
  if (!trace::enabled()) return;
  const Slice& s = slices_[static_cast<std::size_t>(ticket)];
  trace::Event e;
  e.op = op;
  e.coll = "shared_allreduce";
  e.call = s.call;
  e.chunk = ticket;
  e.t0 = e.t1 = trace::now_us();
  if (op == trace::Op::reduce) {
    e.phase = "average";
    e.bytes = bytes;
    e.t0 = t0;
  } else {
    e.count = s.count;
    e.dtype = "float32";
  }
  trace::record(std::move(e));
}

}  // namespace ringlab
