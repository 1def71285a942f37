// Point-to-point transfers on host buffers through MPI. Each call records a trace event when
// tracing is on; when it is off the only extra cost is one branch.
#include "ringlab/comm.hpp"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

// Set while a device buffer's transfer is being recorded, so its trace event says so (where
// "device", transport "staged", "ipc" or "nccl") even when MPI moves a host copy (staged).
thread_local const char* g_device_transport = nullptr;
struct DeviceScope {
  explicit DeviceScope(Transport t) { g_device_transport = transport_name(t); }
  ~DeviceScope() { g_device_transport = nullptr; }
};

trace::Event transfer_event(trace::Op op, int peer, int chunk, std::size_t bytes, double t0) {
  const auto& ctx = trace::context();
  trace::Event e;
  if (g_device_transport) {
    e.where = "device";
    e.transport = g_device_transport;
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

namespace detail {
// One ipc transfer's small MPI messages. Held on the heap: MPI writes into `target` and
// `done_bytes` while the Request that owns the frame is moved around. The receiver pulls:
//   sender, at isend:    finish its GPU work on the buffer, send "ready" (where to read), post "done"
//   receiver, at wait:   take "ready", copy from the peer's memory into its own, sync, send "done"
//   sender, at wait:     take "done": the peer has read the buffer, it may change again
// A receive thus completes once the sender has *started* its send (as with MPI), never
// waiting for the sender's own wait: rings and pipelines that post, then wait, keep flowing.
struct IpcFrame {
  bool send = false;
  int peer = -1, mpi_tag = 0;
  void* data = nullptr;  // this rank's View
  std::size_t bytes = 0;
  ipc::Target target{};  // the sender's buffer: sent by the sender, received by the receiver
  std::uint64_t done_bytes = 0;
  MPI_Request ready = MPI_REQUEST_NULL, done = MPI_REQUEST_NULL;
  bool copied = false;  // receiver: the bytes are here and "done" is on its way
};
}  // namespace detail

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
  std::vector<MPI_Comm> comms{comm_};  // the data, and an ipc run's "ready"/"done" messages
  if (ipc_ready_ != MPI_COMM_NULL) comms.insert(comms.end(), {ipc_ready_, ipc_done_});
  for (int round = 0; round < 3 * static_cast<int>(comms.size()); ++round) {
    MPI_Comm probed = comms[static_cast<std::size_t>(round) % comms.size()];
    for (;;) {
      int flag = 0;
      MPI_Status st;
      MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, probed, &flag, &st);
      if (!flag) break;
      int bytes = 0;
      MPI_Get_count(&st, MPI_BYTE, &bytes);
      sink.resize(static_cast<std::size_t>(std::max(bytes, 1)));
      MPI_Recv(sink.data(), bytes, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, probed, MPI_STATUS_IGNORE);
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
  int finalized = 0;
  MPI_Finalized(&finalized);
  // The GPU transports first, while MPI still runs: NCCL's communicator; for ipc, close every
  // peer buffer this rank opened, then a barrier, so that no rank frees memory (below) that
  // another still has open.
  if (nccl_comm_) nccl::destroy(nccl_comm_);
  nccl_comm_ = nullptr;
  const bool ipc_used = ipc_ready_ != MPI_COMM_NULL && !finalized;
  if (ipc_used) {
    ipc::close_all();
    MPI_Barrier(comm_);
    MPI_Comm_free(&ipc_ready_);
    MPI_Comm_free(&ipc_done_);
  }
  for (auto& s : scratch_) detail::release(s.where, s.data);
  for (auto& s : staging_) device_ops::release_pinned(s.data);
  if (ipc_used) ipc::free_retired();  // every buffer whose handle went out (transport.hpp: retire)
  // The watchdog's duplicate is ours to free (LeakSanitizer found it never was); after
  // MPI_Finalize it is gone with everything else.
  if (watch_ != MPI_COMM_NULL && !finalized) MPI_Comm_free(&watch_);
}

bool Communicator::use_device(int gpu, Transport requested, std::string* error) {
  gpu_ = gpu;
  where_ = Where::device;
  // Which GPU each rank has, told apart as NCCL does: host name and PCI bus id. Every rank
  // gets every rank's, so every rank takes the same decision below.
  constexpr int kIdLen = 256;
  char mine[kIdLen] = {};
  std::snprintf(mine, sizeof mine, "%s %s", host_.c_str(), gpu_info(gpu).pci_bus_id.c_str());
  std::vector<char> all(static_cast<std::size_t>(kIdLen) * size_);
  MPI_Allgather(mine, kIdLen, MPI_CHAR, all.data(), kIdLen, MPI_CHAR, comm_);
  int shared_a = -1, shared_b = -1;  // two ranks on one GPU, if any
  for (int a = 0; a < size_ && shared_a < 0; ++a)
    for (int b = a + 1; b < size_; ++b)
      if (std::strncmp(&all[a * kIdLen], &all[b * kIdLen], kIdLen) == 0) {
        shared_a = a;
        shared_b = b;
        break;
      }
  const bool distinct = shared_a < 0;
  const bool one_host = local_size_ == size_;
  const std::string sharing = distinct
                                  ? ""
                                  : "ranks " + std::to_string(shared_a) + " and " + std::to_string(shared_b) +
                                        " share GPU " + std::string(&all[shared_a * kIdLen]);

  Transport t = requested;
  std::string why = std::string("--transport ") + transport_name(requested);
  std::string nccl_error;
  if (requested == Transport::automatic) {
    const bool nccl_loads = distinct && all_ok(nccl::load(&nccl_error));
    if (nccl_loads) {
      t = Transport::nccl;
      why = "--transport auto: every rank has a GPU of its own (host + PCI bus id), NCCL loaded";
    } else if (one_host) {
      t = Transport::ipc;
      why = "--transport auto: all " + std::to_string(size_) + " ranks on one host (" +
            (distinct ? "NCCL not available" : sharing + ": NCCL would refuse them") + ")";
    } else {
      t = Transport::staged;
      why = "--transport auto: ranks on several hosts and " +
            (distinct ? std::string("NCCL not available") : sharing);
    }
  }
  if (t == Transport::ipc && !one_host) {
    *error =
        "--transport ipc: the ranks are on more than one host, and CUDA IPC shares memory inside one "
        "host only; use --transport nccl or staged";
    return false;
  }
  if (t == Transport::nccl) {
    if (!distinct) {
      *error = "--transport nccl: " + sharing +
               ", and NCCL refuses two ranks on one GPU; use --transport ipc or staged (or fewer ranks)";
      return false;
    }
    if (requested == Transport::nccl && !all_ok(nccl::load(&nccl_error))) {
      *error = nccl_error.empty() ? "--transport nccl: NCCL did not load on every rank" : nccl_error;
      return false;
    }
    MPI_Comm c = comm_;
    std::string init_error;
    nccl_comm_ = nccl::init(&c, rank_, size_, &init_error);
    if (!all_ok(nccl_comm_ != nullptr)) {
      *error = init_error.empty() ? "ncclCommInitRank failed on another rank" : init_error;
      return false;
    }
  }
  if (t == Transport::ipc) {  // "ready" and "done" travel apart from the data (start_device)
    MPI_Comm_dup(comm_, &ipc_ready_);
    MPI_Comm_dup(comm_, &ipc_done_);
  }
  transport_ = t;
  transport_reason_ = why;
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
  if (where == Where::device && transport_ != Transport::staged) {  // ipc, nccl: start and wait
    Request r = start_device(op, data, count, t, chunk, peer, tag);
    Request* p = &r;
    complete(&p, 1);
    return;
  }
  if (where == Where::device) {  // staged: the same transfer from pinned host memory
    const std::size_t bytes = count * dtype_size(t);
    void* h = take_staging(bytes);
    if (op == trace::Op::send) device_ops::copy(h, data, bytes);
    {
      DeviceScope staged(transport_);
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
  if ((out_where == Where::device || in_where == Where::device) && transport_ != Transport::staged) {
    if (out_where != in_where)
      throw std::invalid_argument(
          std::string("sendrecv: one buffer in host and one in device memory; with ") + "--transport " +
          transport_name(transport_) + " both sides of every transfer must be device buffers");
    // ipc, nccl: receive and send started together, then one wait (MPI_Sendrecv's shape).
    Request rin = start_device(trace::Op::recv, in, in_count, t, in_chunk, source, tag);
    Request rout = start_device(trace::Op::send, out, out_count, t, out_chunk, dest, tag);
    Request* both[2] = {&rin, &rout};
    complete(both, 2);
    return;
  }
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
      DeviceScope staged(transport_);
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
  if (where == Where::device && transport_ != Transport::staged)
    return start_device(op, data, count, t, chunk, peer, tag);
  if (where == Where::device) {  // staged: MPI moves pinned host memory; wait() copies a receive up
    const std::size_t bytes = count * dtype_size(t);
    void* h = take_staging(bytes);
    if (op == trace::Op::send) device_ops::copy(h, data, bytes);
    DeviceScope staged(transport_);
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

Request Communicator::start_device(trace::Op op, const void* data, std::size_t count, DType t, int chunk,
                                   int peer, int tag) {
  const std::size_t bytes = count * dtype_size(t);
  const bool send = op == trace::Op::send;
  Request r;
  r.pending_ = {send, peer, tag, bytes};
  if (trace::enabled()) {
    DeviceScope device(transport_);
    r.traced_ = true;
    r.event_ = transfer_event(op, peer, chunk, bytes, trace::now_us());
    r.data_ = data;
    r.count_ = count;
    r.dtype_ = t;
  }
  if (transport_ == Transport::nccl) {  // posted now, issued in one group at the next wait
    nccl_posted_.push_back({send, const_cast<void*>(data), count, t, peer});
    r.nccl_ = true;
  } else {  // ipc (IpcFrame above)
    auto f = std::make_shared<detail::IpcFrame>();
    f->send = send;
    f->peer = peer;
    f->mpi_tag = wire_tag(tag);
    f->data = const_cast<void*>(data);
    f->bytes = bytes;
    if (send) {
      // The peer may read this buffer as soon as it hears "ready": whatever this rank's GPU
      // still has queued on it (the addition that produced the chunk, say) must finish first.
      device_ops::synchronize();
      if (bytes > 0) f->target = ipc::target_of(f->data, bytes);
      MPI_Isend(&f->target, sizeof f->target, MPI_BYTE, peer, f->mpi_tag, ipc_ready_, &f->ready);
      MPI_Irecv(&f->done_bytes, 1, MPI_UINT64_T, peer, f->mpi_tag, ipc_done_, &f->done);
    } else {
      MPI_Irecv(&f->target, sizeof f->target, MPI_BYTE, peer, f->mpi_tag, ipc_ready_, &f->ready);
      ipc_recvs_.push_back(f);
    }
    r.ipc_ = std::move(f);
  }
  r.id_ = ++next_id_;
  const auto& ctx = trace::context();
  open_.emplace(r.id_, Open{send, peer, tag, ctx.step, bytes, ctx.coll, ctx.phase, trace::scope_serial()});
  return r;
}

// ipc: copies the sender's bytes into this rank's buffer (reading a peer's allocation through
// its opened handle, or this rank's own directly: CUDA cannot open a handle in the process that
// made it). `traced`: the Request whose trace event gets the copy's GPU time, if any.
void Communicator::pull(detail::IpcFrame& f, Request* traced) {
  f.ready = MPI_REQUEST_NULL;
  if (f.target.bytes > f.bytes)
    throw std::runtime_error("ipc transport: rank " + std::to_string(f.peer) + " sends " +
                             std::to_string(f.target.bytes) + " bytes to rank " + std::to_string(rank_) +
                             ", whose receive holds " + std::to_string(f.bytes));
  if (f.target.bytes == 0) return;
  const void* src =
      f.peer == rank_ ? reinterpret_cast<const void*>(f.target.pointer) : ipc::open(f.peer, f.target);
  void* gpu_t0 = traced && traced->traced_ ? device_ops::gpu_mark() : nullptr;
  device_ops::copy(f.data, src, f.target.bytes);
  if (gpu_t0) {
    void* gpu_t1 = device_ops::gpu_mark();
    traced->event_.gpu_t0 = device_ops::gpu_mark_us(gpu_t0);
    traced->event_.gpu_t1 = device_ops::gpu_mark_us(gpu_t1);
  }
}

// ipc: pulls every posted receive whose "ready" has arrived and sends its "done". True when it
// pulled one. Receives already pulled, or whose Request is gone, leave the list.
bool Communicator::serve_ipc_receives() {
  bool pulled = false;
  for (auto it = ipc_recvs_.begin(); it != ipc_recvs_.end();) {
    std::shared_ptr<detail::IpcFrame> f = it->lock();
    if (!f || f->copied) {
      it = ipc_recvs_.erase(it);
      continue;
    }
    int arrived = 0;
    MPI_Test(&f->ready, &arrived, MPI_STATUS_IGNORE);
    if (arrived) {
      pull(*f, nullptr);
      device_ops::synchronize();  // read to the end before "done" frees the sender
      f->done_bytes = f->target.bytes;
      MPI_Isend(&f->done_bytes, 1, MPI_UINT64_T, f->peer, f->mpi_tag, ipc_done_, &f->done);
      f->copied = true;
      pulled = true;
      it = ipc_recvs_.erase(it);
      continue;
    }
    ++it;
  }
  return pulled;
}

void Communicator::flush_nccl() {
  if (nccl_posted_.empty()) return;
  nccl::group(nccl_comm_, nccl_posted_.data(), nccl_posted_.size());
  nccl_posted_.clear();
}

void Communicator::wait_requests(MPI_Request* reqs, const watchdog::Pending* what, int n) {
  if (n == 0) return;
  if (watched_ || watchdog::polls_politely()) watched_wait(reqs, what, n);
  else MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE);
}

void Communicator::complete(Request* const* rs, std::size_t n) {
  // nccl: every send and receive posted so far goes out in one group (a lone ncclSend would
  // wait for its peer's receive, which may be posted after this rank's own receive).
  for (std::size_t i = 0; i < n; ++i)
    if (rs[i]->nccl_) {
      flush_nccl();
      break;
    }
  // ipc, part 1: each receive waits for its sender's "ready" (sent when the sender called
  // isend, so this never waits on the sender's own wait), then copies from the peer's memory.
  std::vector<MPI_Request> reqs;
  std::vector<watchdog::Pending> what;
  std::vector<Request*> recvs;
  for (std::size_t i = 0; i < n; ++i)
    if (rs[i]->ipc_ && !rs[i]->ipc_->send && !rs[i]->ipc_->copied) {
      recvs.push_back(rs[i]);
      reqs.push_back(rs[i]->ipc_->ready);
      what.push_back(rs[i]->pending_);
    }
  wait_requests(reqs.data(), what.data(), static_cast<int>(reqs.size()));
  for (Request* r : recvs) pull(*r->ipc_, r);
  if (!recvs.empty()) device_ops::synchronize();  // read to the end before "done" frees the sender
  for (Request* r : recvs) {
    detail::IpcFrame& f = *r->ipc_;
    f.done_bytes = f.target.bytes;
    MPI_Isend(&f.done_bytes, 1, MPI_UINT64_T, f.peer, f.mpi_tag, ipc_done_, &f.done);
    f.copied = true;
  }
  // Part 2, every MPI request left: host transfers' data, the ipc messages ("ready" sent,
  // "done" sent or received), in one wait, so that a hang report lists every transfer.
  reqs.clear();
  what.clear();
  bool waits_for_done = false;
  for (std::size_t i = 0; i < n; ++i) {
    Request& r = *rs[i];
    for (MPI_Request* q : {&r.req_, r.ipc_ ? &r.ipc_->ready : nullptr, r.ipc_ ? &r.ipc_->done : nullptr})
      if (q && *q != MPI_REQUEST_NULL) {
        reqs.push_back(*q);
        what.push_back(r.pending_);
        waits_for_done = waits_for_done || (r.ipc_ && q == &r.ipc_->done && r.ipc_->send);
      }
  }
  // A send's "done" comes when its receiver pulls, and that receiver may be waiting for its
  // own send first (irecv, isend, wait(send), wait(recv) on every rank of a ring): with MPI
  // both messages would have moved in the background. So while a send waits, this rank pulls
  // every receive it has posted whose "ready" has come, until the sends are done — for as long
  // as the watchdog's threshold; after that the watched wait below reports the hang.
  if (waits_for_done && !ipc_recvs_.empty()) {
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::duration<double>(
                                                                 std::max(1.0, watchdog::threshold_s()));
    int all_done = 0;
    while (!all_done && std::chrono::steady_clock::now() < give_up) {
      MPI_Testall(static_cast<int>(reqs.size()), reqs.data(), &all_done, MPI_STATUSES_IGNORE);
      if (!all_done && !serve_ipc_receives()) std::this_thread::yield();
    }
  }
  wait_requests(reqs.data(), what.data(), static_cast<int>(reqs.size()));
  // Finished: the trace events, the staged receives' copies up to the GPU.
  for (std::size_t i = 0; i < n; ++i) {
    Request& r = *rs[i];
    r.req_ = MPI_REQUEST_NULL;
    r.ipc_.reset();
    r.nccl_ = false;
    open_.erase(r.id_);
    r.id_ = 0;
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
}

void Communicator::wait(Request& r) {
  Request* p = &r;
  complete(&p, 1);
}

void Communicator::wait_all(std::vector<Request>& rs) {
  std::vector<Request*> ps;
  for (auto& r : rs) ps.push_back(&r);
  complete(ps.data(), ps.size());
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

namespace ringlab {
// The benchmarks' library rows: NCCL's own collectives on the communicator's NCCL communicator.
void nccl_allreduce(Communicator& comm, DType t, const void* in, void* out, std::size_t count) {
  if (comm.nccl_comm() == nullptr)
    throw std::logic_error("nccl_allreduce: this communicator's transport is not nccl");
  nccl::allreduce_sum(comm.nccl_comm(), t, in, out, count);
}
void nccl_broadcast(Communicator& comm, DType t, void* buf, std::size_t count, int root) {
  if (comm.nccl_comm() == nullptr)
    throw std::logic_error("nccl_broadcast: this communicator's transport is not nccl");
  nccl::broadcast(comm.nccl_comm(), t, buf, count, root);
}
}  // namespace ringlab
