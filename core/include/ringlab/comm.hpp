// The communicator: who am I (world and local rank), and typed point-to-point transfers of
// Views. Lessons move data only through it, so every transfer can be traced, and so that a
// device backend can move CUDA buffers (View::where() == Where::device) without lesson code
// changing: the transport is chosen per call from where the buffer lives.
//
//   auto& comm = rt.comm();
//   comm.send(View(buf), /*peer=*/1);
//   comm.sendrecv(out, next, in, prev);   // send and receive at once: cannot deadlock a ring
#pragma once
#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "ringlab/buffer.hpp"
#include "ringlab/dtype.hpp"
#include "ringlab/trace.hpp"
#include "ringlab/watchdog.hpp"

namespace ringlab {

// A transfer in flight (isend / irecv). Finish it with Communicator::wait or wait_all.
class Request {
 public:
  Request() = default;
  bool active() const { return req_ != MPI_REQUEST_NULL; }

 private:
  friend class Communicator;
  MPI_Request req_ = MPI_REQUEST_NULL;
  // What the trace records when the transfer completes.
  bool traced_ = false;
  trace::Event event_;
  const void* data_ = nullptr;
  std::size_t count_ = 0;
  DType dtype_ = DType::f32;
  watchdog::Pending pending_;  // what the watchdog reports if the wait never ends
};

class Communicator {
 public:
  explicit Communicator(MPI_Comm comm);
  ~Communicator();                             // frees the watchdog's duplicate of the communicator
  Communicator(const Communicator&) = delete;  // one owner of that duplicate
  Communicator& operator=(const Communicator&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  int local_rank() const { return local_rank_; }  // rank among the processes on this host
  int local_size() const { return local_size_; }
  const std::string& host() const { return host_; }
  MPI_Comm raw() const { return comm_; }

  // Blocking transfers.
  template <class T> void send(View<const T> buf, int peer, int tag = 0) {
    xfer_blocking(trace::Op::send, buf.data(), buf.size(), dtype_of<T>(), buf.where(), buf.chunk(), peer,
                  tag);
  }
  template <class T> void recv(View<T> buf, int peer, int tag = 0) {
    xfer_blocking(trace::Op::recv, buf.data(), buf.size(), dtype_of<T>(), buf.where(), buf.chunk(), peer,
                  tag);
  }
  template <class T> void sendrecv(View<const T> out, int dest, View<T> in, int source, int tag = 0) {
    sendrecv_impl(out.data(), out.size(), out.chunk(), dest, in.data(), in.size(), in.chunk(), source,
                  dtype_of<T>(), out.where(), in.where(), tag);
  }
  // Overloads so a View<T> (non-const) can be sent without spelling the conversion.
  template <class T> void send(View<T> buf, int peer, int tag = 0) { send(View<const T>(buf), peer, tag); }
  template <class T> void sendrecv(View<T> out, int dest, View<T> in, int source, int tag = 0) {
    sendrecv(View<const T>(out), dest, in, source, tag);
  }

  // Non-blocking transfers: start now, finish with wait()/wait_all().
  template <class T> Request isend(View<const T> buf, int peer, int tag = 0) {
    return start(trace::Op::send, buf.data(), buf.size(), dtype_of<T>(), buf.where(), buf.chunk(), peer, tag);
  }
  template <class T> Request isend(View<T> buf, int peer, int tag = 0) {
    return isend(View<const T>(buf), peer, tag);
  }
  template <class T> Request irecv(View<T> buf, int peer, int tag = 0) {
    return start(trace::Op::recv, buf.data(), buf.size(), dtype_of<T>(), buf.where(), buf.chunk(), peer, tag);
  }
  void wait(Request& r);
  void wait_all(std::vector<Request>& rs);

  void barrier();
  // True on every rank when `ok` is true on every rank. The way to agree on an error without
  // one rank returning while the others wait for it.
  bool all_ok(bool ok);
  // Sum / max of one number over all ranks (used for timings and counters, not for lessons' data).
  double sum(double v);
  double max(double v);
  long long sum(long long v);
  // Rank 0 receives each rank's string; returns them in rank order on rank 0, empty elsewhere.
  std::vector<std::string> gather_strings(const std::string& mine);

 private:
  void xfer_blocking(trace::Op op, const void* data, std::size_t count, DType t, Where where, int chunk,
                     int peer, int tag);
  void sendrecv_impl(const void* out, std::size_t out_count, int out_chunk, int dest, void* in,
                     std::size_t in_count, int in_chunk, int source, DType t, Where out_where, Where in_where,
                     int tag);
  Request start(trace::Op op, const void* data, std::size_t count, DType t, Where where, int chunk, int peer,
                int tag);

  // Blocking calls wait through the watchdog (watchdog.hpp) unless RINGLAB_WATCHDOG_S=0;
  // watch_ is a duplicate of comm_ that carries only the watchdog's messages.
  void watched_wait(MPI_Request* reqs, const watchdog::Pending* what, int n);
  MPI_Comm comm_;
  MPI_Comm watch_ = MPI_COMM_NULL;
  bool watched_ = false;
  int rank_ = 0, size_ = 1, local_rank_ = 0, local_size_ = 1;
  std::string host_;
};

namespace detail {
// The collective, phase and step in progress, for a reduce or copy event (as transfers have).
inline void fill_context(trace::Event& e) {
  const auto& ctx = trace::context();
  e.coll = ctx.coll;
  e.call = ctx.call;
  e.phase = ctx.phase;
  e.step = ctx.step;
}

// Records that `dst` (a chunk of this rank's buffer) was just written by a reduce or a copy
// that started at t0. Call only when tracing is on.
template <class T> void record_local(trace::Op op, View<T> dst, double t0) {
  trace::Event e;
  e.op = op;
  fill_context(e);
  e.chunk = dst.chunk();
  e.bytes = dst.bytes();
  e.t0 = t0;
  e.t1 = trace::now_us();
  e.values = trace::small_values(dst.data(), dst.size());
  trace::record(std::move(e));
}
}  // namespace detail

// Element-wise dst += src, traced as a reduction of dst's chunk. The one place the kit's
// collectives add numbers, so the visualizer sees every reduction.
template <class T> void reduce_sum(View<T> dst, View<const T> src) {
  const double t0 = trace::enabled() ? trace::now_us() : 0;
  T* d = dst.data();
  const T* s = src.data();
  const std::size_t n = dst.size();
  for (std::size_t i = 0; i < n; ++i) d[i] += s[i];
  if (trace::enabled()) detail::record_local(trace::Op::reduce, dst, t0);
}
template <class T> void reduce_sum(View<T> dst, View<T> src) { reduce_sum(dst, View<const T>(src)); }

// dst = src, traced as a copy.
template <class T> void copy(View<T> dst, View<const T> src) {
  const double t0 = trace::enabled() ? trace::now_us() : 0;
  std::copy(src.begin(), src.end(), dst.begin());
  if (trace::enabled()) detail::record_local(trace::Op::copy, dst, t0);
}

}  // namespace ringlab
