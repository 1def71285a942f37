// Point-to-point transfers on host buffers through MPI. Each call records a trace event when
// tracing is on; when it is off the only extra cost is one branch.
#include "ringlab/comm.hpp"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <thread>

#include "ringlab/log.hpp"

#include "ringlab/memory.hpp"

namespace ringlab {
namespace {

int checked_count(std::size_t count) {
  if (count > static_cast<std::size_t>(INT_MAX))
    throw std::length_error("a single transfer is limited to " + std::to_string(INT_MAX) + " elements");
  return static_cast<int>(count);
}

// Set while a device buffer's transfer runs staged through host memory, so its trace event
// says so (where "device", transport "staged") although MPI moves the host copy.
thread_local const char* g_staged_transport = nullptr;
struct StagedScope {
  explicit StagedScope(Transport t) { g_staged_transport = transport_name(t); }
  ~StagedScope() { g_staged_transport = nullptr; }
};

trace::Event transfer_event(trace::Op op, int peer, int chunk, std::size_t bytes, double t0) {
  const auto& ctx = trace::context();
  trace::Event e;
  if (g_staged_transport) {
    e.where = "device";
    e.transport = g_staged_transport;
  }
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

// The wire tag: the caller's tag in the low 16 bits, the collective's slot above them. A slot is
// a hash of the collective's name (1..511; 0 outside every collective), so the tag stays below
// 2^25 (Open MPI's MPI_TAG_UB is 2^31 - 1; the standard promises only 32767, hence the check).
// Names seen are remembered to turn a stray message's tag back into words.
constexpr int kSlots = 512;
bool slots_fit() {
  static const bool fit = [] {
    void* value = nullptr;
    int flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &value, &flag);
    return flag && *static_cast<int*>(value) >= kSlots * (kMaxTag + 1) - 1;
  }();
  return fit;
}
std::map<int, std::string>& slot_names() {
  static std::map<int, std::string> names;
  return names;
}
int slot_of(const char* name) {
  if (name == nullptr || *name == 0) return 0;
  unsigned h = 2166136261u;  // FNV-1a
  for (const char* p = name; *p; ++p) h = (h ^ static_cast<unsigned char>(*p)) * 16777619u;
  const int slot = 1 + static_cast<int>(h % (kSlots - 1));
  slot_names().emplace(slot, name);
  return slot;
}

Communicator* g_comm = nullptr;  // the world communicator, for the scope-end hook
void on_scope_end(const char* name, std::int64_t serial) {
  if (g_comm) g_comm->scope_ended(name, serial);
}

}  // namespace

int wire_tag(int tag) {
  if (tag < 0 || tag > kMaxTag)
    throw std::invalid_argument("tag " + std::to_string(tag) + ": the kit's tags go from 0 to " +
                                std::to_string(kMaxTag));
  return slots_fit() ? slot_of(trace::context().coll) * (kMaxTag + 1) + tag : tag;
}

std::string wire_tag_origin(int mpi_tag) {
  const int slot = mpi_tag / (kMaxTag + 1), tag = mpi_tag % (kMaxTag + 1);
  std::string who = "outside any collective";
  if (slot != 0) {
    auto it = slot_names().find(slot);
    who = it != slot_names().end() ? "in " + it->second : "in a collective this rank never ran";
  }
  return who + " (tag " + std::to_string(tag) + ")";
}

std::string Communicator::Open::what() const {
  std::string w = std::string(send ? "isend to rank " : "irecv from rank ") + std::to_string(peer) +
                  " (tag " + std::to_string(tag) + ", " + std::to_string(bytes) + " bytes) ";
  if (coll == nullptr || *coll == 0) return w + "outside any collective";
  w += std::string("in ") + coll;
  if (phase && *phase) w += std::string(", ") + phase;
  if (step >= 0) w += " step " + std::to_string(step);
  return w;
}

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
  g_comm = this;
  trace::set_scope_end_hook(on_scope_end);
}

void Communicator::scope_ended(const char* name, std::int64_t serial) {
  slot_of(name);  // remembers the name, to blame a stray message from another rank's same collective
  std::vector<std::string> left;
  for (const auto& [id, o] : open_)
    if (o.scope == serial) left.push_back(o.what());
  if (left.empty()) return;
  if (!left_behind_) {  // the first time only: one collective called in a loop would repeat it
    std::string list;
    for (std::size_t i = 0; i < left.size() && i < 3; ++i) list += (i ? "; " : "") + left[i];
    if (left.size() > 3) list += "; ...";
    log(Level::error) << "message left behind: " << name << " returned with " << left.size()
                      << " non-blocking transfer(s) never finished (" << list
                      << "). Finish every comm.isend / comm.irecv with comm.wait(request) or "
                         "comm.wait_all(requests) before the collective returns: small messages happen to "
                         "arrive anyway, large ones do not.";
  }
  left_behind_ = true;
  for (auto it = open_.begin(); it != open_.end();)  // reported once; not again at the end
    it = it->second.scope == serial ? open_.erase(it) : std::next(it);
}

bool Communicator::finish() {
  int problems = 0;
  for (const auto& [id, o] : open_) {
    if (problems++ < 3)
      log(Level::error) << "message left behind: " << o.what()
                        << " was never finished: call comm.wait(request) or comm.wait_all(requests) on it.";
  }
  // Messages that arrived here and that no receive took. Every rank has sent all it will send
  // before it enters the barrier; probing a few times lets MPI move the last ones in.
  MPI_Barrier(comm_);
  std::vector<char> sink;
  for (int round = 0; round < 3; ++round) {
    for (;;) {
      int flag = 0;
      MPI_Status st;
      MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm_, &flag, &st);
      if (!flag) break;
      int bytes = 0;
      MPI_Get_count(&st, MPI_BYTE, &bytes);
      sink.resize(static_cast<std::size_t>(std::max(bytes, 1)));
      MPI_Recv(sink.data(), bytes, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, comm_, MPI_STATUS_IGNORE);
      if (problems++ < 3)
        log(Level::error) << "message left behind: rank " << st.MPI_SOURCE << " sent this rank " << bytes
                          << " bytes " << wire_tag_origin(st.MPI_TAG)
                          << " that no receive took: an extra send on rank " << st.MPI_SOURCE
                          << " (or a missing receive here). Count the sends and the receives of each step.";
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  open_.clear();
  const bool ok = problems == 0 && !left_behind_;
  left_behind_ = false;
  return ok;
}

Communicator::~Communicator() {
  for (auto& s : scratch_) detail::release(s.where, s.data);
  for (auto& s : staging_) device_ops::release_pinned(s.data);
  // The watchdog's duplicate is ours to free (LeakSanitizer found it never was); after
  // MPI_Finalize it is gone with everything else.
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (watch_ != MPI_COMM_NULL && !finalized) MPI_Comm_free(&watch_);
}

bool Communicator::use_device(int gpu, Transport requested, std::string* error) {
  gpu_ = gpu;
  where_ = Where::device;
  if (requested == Transport::nccl || requested == Transport::ipc) {
    *error = std::string("--transport ") + transport_name(requested) +
             ": not written yet; GPU buffers move with --transport staged (or auto) in this version";
    return false;
  }
  transport_ = Transport::staged;
  transport_reason_ = requested == Transport::staged
                          ? "--transport staged"
                          : "--transport auto: staged is the one transport this version has (ipc and nccl "
                            "are not written yet)";
  return true;
}

void* Communicator::take_staging(std::size_t bytes) {
  for (auto& s : staging_)
    if (!s.busy && s.bytes >= bytes) {
      s.busy = true;
      return s.data;
    }
  const std::size_t size = std::max<std::size_t>(bytes, 64);
  staging_.push_back({device_ops::allocate_pinned(size), size, true});
  return staging_.back().data;
}

void Communicator::give_back_staging(void* p) {
  for (auto& s : staging_)
    if (s.data == p) s.busy = false;
}

void* Communicator::scratch(Where where, int slot, std::size_t bytes) {
  for (auto& s : scratch_) {
    if (s.where != where || s.slot != slot) continue;
    if (s.bytes < bytes) {  // grow: the old contents are not needed (scratch is filled before use)
      detail::release(where, s.data);
      s.data = nullptr;
      s.data = detail::allocate(where, bytes);
      s.bytes = bytes;
    }
    return s.data;
  }
  scratch_.push_back({where, slot, detail::allocate(where, bytes), bytes});
  return scratch_.back().data;
}

void Communicator::watched_wait(MPI_Request* reqs, const watchdog::Pending* what, int n) {
  watchdog::wait_all(watch_, reqs, what, n);
}

void Communicator::xfer_blocking(trace::Op op, const void* data, std::size_t count, DType t, Where where,
                                 int chunk, int peer, int tag) {
  if (where == Where::device) {  // staged: the same transfer from pinned host memory
    const std::size_t bytes = count * dtype_size(t);
    void* h = take_staging(bytes);
    if (op == trace::Op::send) device_ops::copy(h, data, bytes);
    {
      StagedScope staged(transport_);
      xfer_blocking(op, h, count, t, Where::host, chunk, peer, tag);
    }
    if (op == trace::Op::recv) device_ops::copy(const_cast<void*>(data), h, bytes);
    give_back_staging(h);
    return;
  }
  const int n = checked_count(count);
  const double t0 = trace::enabled() ? trace::now_us() : 0;
  if (!watched_ && !watchdog::polls_politely()) {
    if (op == trace::Op::send) MPI_Send(data, n, mpi_datatype(t), peer, wire_tag(tag), comm_);
    else MPI_Recv(const_cast<void*>(data), n, mpi_datatype(t), peer, wire_tag(tag), comm_, MPI_STATUS_IGNORE);
  } else {  // the same transfer, started non-blocking so that the watchdog can watch the wait
    MPI_Request req;
    if (op == trace::Op::send) MPI_Isend(data, n, mpi_datatype(t), peer, wire_tag(tag), comm_, &req);
    else MPI_Irecv(const_cast<void*>(data), n, mpi_datatype(t), peer, wire_tag(tag), comm_, &req);
    const watchdog::Pending what{op == trace::Op::send, peer, tag, count * dtype_size(t)};
    watched_wait(&req, &what, 1);
  }
  if (trace::enabled())
    finish_event(transfer_event(op, peer, chunk, count * dtype_size(t), t0), data, count, t);
}

void Communicator::sendrecv_impl(const void* out, std::size_t out_count, int out_chunk, int dest, void* in,
                                 std::size_t in_count, int in_chunk, int source, DType t, Where out_where,
                                 Where in_where, int tag) {
  if (out_where == Where::device || in_where == Where::device) {  // staged, as in xfer_blocking
    const std::size_t es = dtype_size(t);
    void* h_out = const_cast<void*>(out);
    void* h_in = in;
    if (out_where == Where::device) {
      h_out = take_staging(out_count * es);
      device_ops::copy(h_out, out, out_count * es);
    }
    if (in_where == Where::device) h_in = take_staging(in_count * es);
    {
      StagedScope staged(transport_);
      sendrecv_impl(h_out, out_count, out_chunk, dest, h_in, in_count, in_chunk, source, t, Where::host,
                    Where::host, tag);
    }
    if (in_where == Where::device) {
      device_ops::copy(in, h_in, in_count * es);
      give_back_staging(h_in);
    }
    if (out_where == Where::device) give_back_staging(h_out);
    return;
  }
  const double t0 = trace::enabled() ? trace::now_us() : 0;
  if (!watched_ && !watchdog::polls_politely()) {
    MPI_Sendrecv(out, checked_count(out_count), mpi_datatype(t), dest, wire_tag(tag), in,
                 checked_count(in_count), mpi_datatype(t), source, wire_tag(tag), comm_, MPI_STATUS_IGNORE);
  } else {  // what MPI_Sendrecv does inside: post the receive, start the send, wait for both
    MPI_Request reqs[2];
    MPI_Irecv(in, checked_count(in_count), mpi_datatype(t), source, wire_tag(tag), comm_, &reqs[0]);
    MPI_Isend(out, checked_count(out_count), mpi_datatype(t), dest, wire_tag(tag), comm_, &reqs[1]);
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
  if (where == Where::device) {  // staged: MPI moves pinned host memory; wait() copies a receive up
    const std::size_t bytes = count * dtype_size(t);
    void* h = take_staging(bytes);
    if (op == trace::Op::send) device_ops::copy(h, data, bytes);
    StagedScope staged(transport_);
    Request r = start(op, h, count, t, Where::host, chunk, peer, tag);
    r.staging_ = h;
    r.staging_bytes_ = bytes;
    if (op == trace::Op::recv) r.device_dst_ = const_cast<void*>(data);
    return r;
  }
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
  if (op == trace::Op::send) MPI_Isend(data, n, mpi_datatype(t), peer, wire_tag(tag), comm_, &r.req_);
  else MPI_Irecv(const_cast<void*>(data), n, mpi_datatype(t), peer, wire_tag(tag), comm_, &r.req_);
  r.id_ = ++next_id_;
  const auto& ctx = trace::context();
  open_.emplace(r.id_, Open{op == trace::Op::send, peer, tag, ctx.step, count * dtype_size(t), ctx.coll,
                            ctx.phase, trace::scope_serial()});
  return r;
}

void Communicator::wait(Request& r) {
  open_.erase(r.id_);
  r.id_ = 0;
  if (watched_ || watchdog::polls_politely()) watched_wait(&r.req_, &r.pending_, 1);
  else MPI_Wait(&r.req_, MPI_STATUS_IGNORE);
  if (r.traced_) {
    finish_event(std::move(r.event_), r.data_, r.count_, r.dtype_);
    r.traced_ = false;
  }
  if (r.staging_) {
    if (r.device_dst_) device_ops::copy(r.device_dst_, r.staging_, r.staging_bytes_);
    give_back_staging(r.staging_);
    r.staging_ = r.device_dst_ = nullptr;
  }
}

void Communicator::wait_all(std::vector<Request>& rs) {
  if (watched_ || watchdog::polls_politely()) {  // one watched wait for all of them, so a hang report lists
                                                 // every transfer left
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
