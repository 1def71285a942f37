// Point-to-point transfers on host buffers through MPI. Each call records a trace event when
// tracing is on; when it is off the only extra cost is one branch.
#include "ringlab/comm.hpp"

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace ringlab {
namespace {

int checked_count(std::size_t count) {
  if (count > static_cast<std::size_t>(INT_MAX))
    throw std::length_error("a single transfer is limited to " + std::to_string(INT_MAX) + " elements");
  return static_cast<int>(count);
}

void require_host(Where where) {
  // The device backend (CUDA buffers moved by NCCL) plugs in here: a View that lives on the
  // GPU goes to ncclSend/ncclRecv instead of MPI. Until then device views are refused clearly.
  if (where != Where::host)
    throw std::runtime_error("device buffers need the NCCL backend, which this communicator does not have");
}

trace::Event transfer_event(trace::Op op, int peer, int chunk, std::size_t bytes, double t0) {
  const auto& ctx = trace::context();
  trace::Event e;
  e.op = op;
  e.peer = peer;
  e.coll = ctx.coll;
  e.call = ctx.call;
  e.phase = ctx.phase;
  e.step = ctx.step;
  e.chunk = chunk;
  e.bytes = bytes;
  e.t0 = t0;
  return e;
}

void finish_event(trace::Event e, const void* data, std::size_t count, DType t) {
  e.t1 = trace::now_us();
  dispatch(t, [&](auto zero) {
    using T = decltype(zero);
    e.values = trace::small_values(static_cast<const T*>(data), count);
  });
  trace::record(std::move(e));
}

}  // namespace

Communicator::Communicator(MPI_Comm comm) : comm_(comm) {
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
  // Processes that share memory share a host: their order among themselves is the local rank.
  MPI_Comm local;
  MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &local);
  MPI_Comm_rank(local, &local_rank_);
  MPI_Comm_size(local, &local_size_);
  MPI_Comm_free(&local);
  char name[MPI_MAX_PROCESSOR_NAME];
  int len = 0;
  MPI_Get_processor_name(name, &len);
  host_.assign(name, static_cast<std::size_t>(len));
  // Every rank reads the same environment, so every rank stops here together on a bad value.
  if (watchdog::threshold_s() < 0) {
    if (rank_ == 0)
      std::fprintf(stderr,
                   "error: RINGLAB_WATCHDOG_S=%s: give the seconds a rank may stay blocked (a number >= 0; "
                   "0 turns the watchdog off)\n",
                   std::getenv("RINGLAB_WATCHDOG_S"));
    MPI_Finalize();
    std::exit(2);
  }
  watchdog::explain_errors(comm_);
  watched_ = watchdog::threshold_s() > 0;
  if (watched_) MPI_Comm_dup(comm_, &watch_);
}

Communicator::~Communicator() {
  // The duplicate is ours to free (LeakSanitizer found it never was); after MPI_Finalize it
  // is gone with everything else.
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (watch_ != MPI_COMM_NULL && !finalized) MPI_Comm_free(&watch_);
}

void Communicator::watched_wait(MPI_Request* reqs, const watchdog::Pending* what, int n) {
  watchdog::wait_all(watch_, reqs, what, n);
}

void Communicator::xfer_blocking(trace::Op op, const void* data, std::size_t count, DType t, Where where,
                                 int chunk, int peer, int tag) {
  require_host(where);
  const int n = checked_count(count);
  const double t0 = trace::enabled() ? trace::now_us() : 0;
  if (!watched_) {
    if (op == trace::Op::send) MPI_Send(data, n, mpi_datatype(t), peer, tag, comm_);
    else MPI_Recv(const_cast<void*>(data), n, mpi_datatype(t), peer, tag, comm_, MPI_STATUS_IGNORE);
  } else {  // the same transfer, started non-blocking so that the watchdog can watch the wait
    MPI_Request req;
    if (op == trace::Op::send) MPI_Isend(data, n, mpi_datatype(t), peer, tag, comm_, &req);
    else MPI_Irecv(const_cast<void*>(data), n, mpi_datatype(t), peer, tag, comm_, &req);
    const watchdog::Pending what{op == trace::Op::send, peer, tag, count * dtype_size(t)};
    watched_wait(&req, &what, 1);
  }
  if (trace::enabled())
    finish_event(transfer_event(op, peer, chunk, count * dtype_size(t), t0), data, count, t);
}

void Communicator::sendrecv_impl(const void* out, std::size_t out_count, int out_chunk, int dest, void* in,
                                 std::size_t in_count, int in_chunk, int source, DType t, Where out_where,
                                 Where in_where, int tag) {
  require_host(out_where);
  require_host(in_where);
  const double t0 = trace::enabled() ? trace::now_us() : 0;
  if (!watched_) {
    MPI_Sendrecv(out, checked_count(out_count), mpi_datatype(t), dest, tag, in, checked_count(in_count),
                 mpi_datatype(t), source, tag, comm_, MPI_STATUS_IGNORE);
  } else {  // what MPI_Sendrecv does inside: post the receive, start the send, wait for both
    MPI_Request reqs[2];
    MPI_Irecv(in, checked_count(in_count), mpi_datatype(t), source, tag, comm_, &reqs[0]);
    MPI_Isend(out, checked_count(out_count), mpi_datatype(t), dest, tag, comm_, &reqs[1]);
    const std::size_t es = dtype_size(t);
    const watchdog::Pending what[2] = {{false, source, tag, in_count * es},
                                       {true, dest, tag, out_count * es}};
    watched_wait(reqs, what, 2);
  }
  if (trace::enabled()) {
    const std::size_t es = dtype_size(t);
    finish_event(transfer_event(trace::Op::send, dest, out_chunk, out_count * es, t0), out, out_count, t);
    finish_event(transfer_event(trace::Op::recv, source, in_chunk, in_count * es, t0), in, in_count, t);
  }
}

Request Communicator::start(trace::Op op, const void* data, std::size_t count, DType t, Where where,
                            int chunk, int peer, int tag) {
  require_host(where);
  Request r;
  const int n = checked_count(count);
  r.pending_ = {op == trace::Op::send, peer, tag, count * dtype_size(t)};
  if (trace::enabled()) {
    r.traced_ = true;
    r.event_ = transfer_event(op, peer, chunk, count * dtype_size(t), trace::now_us());
    r.data_ = data;
    r.count_ = count;
    r.dtype_ = t;
  }
  if (op == trace::Op::send) MPI_Isend(data, n, mpi_datatype(t), peer, tag, comm_, &r.req_);
  else MPI_Irecv(const_cast<void*>(data), n, mpi_datatype(t), peer, tag, comm_, &r.req_);
  return r;
}

void Communicator::wait(Request& r) {
  if (watched_) watched_wait(&r.req_, &r.pending_, 1);
  else MPI_Wait(&r.req_, MPI_STATUS_IGNORE);
  if (r.traced_) {
    finish_event(std::move(r.event_), r.data_, r.count_, r.dtype_);
    r.traced_ = false;
  }
}

void Communicator::wait_all(std::vector<Request>& rs) {
  if (watched_) {  // one watched wait for all of them, so a hang report lists every transfer left
    std::vector<MPI_Request> reqs;
    std::vector<watchdog::Pending> what;
    for (auto& r : rs) {
      reqs.push_back(r.req_);
      what.push_back(r.pending_);
    }
    watched_wait(reqs.data(), what.data(), static_cast<int>(reqs.size()));
    for (std::size_t i = 0; i < rs.size(); ++i) rs[i].req_ = reqs[i];
  }
  for (auto& r : rs) wait(r);  // finishes the trace events (and the waits, when not watched)
}

void Communicator::barrier() { MPI_Barrier(comm_); }

bool Communicator::all_ok(bool ok) {
  int mine = ok ? 1 : 0, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, comm_);
  return all == 1;
}

double Communicator::sum(double v) {
  double out = 0;
  MPI_Allreduce(&v, &out, 1, MPI_DOUBLE, MPI_SUM, comm_);
  return out;
}

double Communicator::max(double v) {
  double out = 0;
  MPI_Allreduce(&v, &out, 1, MPI_DOUBLE, MPI_MAX, comm_);
  return out;
}

long long Communicator::sum(long long v) {
  long long out = 0;
  MPI_Allreduce(&v, &out, 1, MPI_LONG_LONG, MPI_SUM, comm_);
  return out;
}

std::vector<std::string> Communicator::gather_strings(const std::string& mine) {
  int len = static_cast<int>(mine.size());
  std::vector<int> lens(rank_ == 0 ? size_ : 0), offs(rank_ == 0 ? size_ : 0);
  MPI_Gather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, 0, comm_);
  std::string all;
  if (rank_ == 0) {
    int total = 0;
    for (int r = 0; r < size_; ++r) {
      offs[r] = total;
      total += lens[r];
    }
    all.resize(static_cast<std::size_t>(total));
  }
  MPI_Gatherv(mine.data(), len, MPI_CHAR, all.data(), lens.data(), offs.data(), MPI_CHAR, 0, comm_);
  std::vector<std::string> out;
  if (rank_ == 0)
    for (int r = 0; r < size_; ++r) out.push_back(all.substr(offs[r], lens[r]));
  return out;
}

}  // namespace ringlab
