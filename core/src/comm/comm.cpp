// The Communicator: who every rank is, the transfers lessons ask for, and what they leave behind.
// It does not move bytes itself. Each transfer goes to a transport (ringlab/transport.hpp, one
// file each in core/src/comm/transport/) chosen by where its buffer lives: host buffers to mpi (or
// strict), device buffers to staged, ipc or nccl. Around every transfer the communicator adds
// what the lessons rely on whatever the transport: the wire tag that names the collective, the
// trace event, the record of transfers not yet finished (and the report of any left behind),
// and the scratch memory algorithms borrow.
#include "ringlab/comm/comm.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <numeric>
#include <stdexcept>
#include <thread>

#include "ringlab/base/log.hpp"
#include "ringlab/comm/memory.hpp"
#include "transport/cuda_side.hpp"

namespace ringlab {
namespace {

// Records a finished transfer's event, with the values it moved when the collective is small.
void finish_event(trace::Event e, const transport::Op& o) {
  e.t1 = trace::now_us();
  dispatch(o.dtype, [&](auto zero) {
    using T = decltype(zero);
    e.values = trace::small_values(static_cast<const T*>(o.data), o.count);
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
std::map<int, std::string> g_slot_names;
int slot_of(const char* name) {
  if (name == nullptr || *name == 0) return 0;
  unsigned h = 2166136261u;  // FNV-1a
  for (const char* p = name; *p; ++p) h = (h ^ static_cast<unsigned char>(*p)) * 16777619u;
  const int slot = 1 + static_cast<int>(h % (kSlots - 1));
  g_slot_names.emplace(slot, name);
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
    auto it = g_slot_names.find(slot);
    who = it != g_slot_names.end() ? "in " + it->second : "in a collective this rank never ran";
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

namespace {
// RINGLAB_SIM_RANKS_PER_HOST: 0 when unset, -1 when not a whole number >= 1.
int sim_ranks_per_host() {
  const char* text = std::getenv("RINGLAB_SIM_RANKS_PER_HOST");
  if (text == nullptr || *text == '\0') return 0;
  char* end = nullptr;
  const long k = std::strtol(text, &end, 10);
  return *end == '\0' && k >= 1 && k <= 1 << 20 ? static_cast<int>(k) : -1;
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
  host_name_.assign(name, static_cast<std::size_t>(len));
  // RINGLAB_SIM_RANKS_PER_HOST=k: every rank behaves as if mpirun had put k ranks on each host,
  // in blocks of consecutive ranks (its default, by slot), so that code which takes
  // comm.local_size() or local_rank() where size() or rank() belongs goes wrong on one machine too,
  // as it would across hosts. Only the local numbers and the host's name change: memory, and
  // what really shares it, stay as they are. The exercise checks set it (exercises/manifest.txt).
  const int per_host = sim_ranks_per_host();
  if (per_host > 0 && per_host < local_size_ && local_size_ == size_) {
    local_rank_ = rank_ % per_host;
    local_size_ = std::min(per_host, size_ - rank_ / per_host * per_host);
    host_name_ += "/sim" + std::to_string(rank_ / per_host);
  }
  // Every rank reads the same environment, so every rank stops here together on a bad value.
  if (per_host < 0) {
    if (rank_ == 0)
      std::fprintf(stderr, "error: RINGLAB_SIM_RANKS_PER_HOST=%s: give how many ranks each simulated host holds (a whole number >= 1)\n",
                   std::getenv("RINGLAB_SIM_RANKS_PER_HOST"));
    MPI_Finalize();
    std::exit(2);
  }
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
  watchdog::look_for_strays_on(comm_);
  if (watchdog::threshold_s() > 0) MPI_Comm_dup(comm_, &watch_);
  wire_ = {comm_, watch_, rank_, size_};
  host_ = transport::make_mpi(wire_);
  g_comm = this;
  trace::set_scope_end_hook(on_scope_end);
}

void Communicator::scope_ended(const char* name, std::int64_t serial) {
  slot_of(name);  // remembers the name, to blame a stray message from another rank's same collective
  std::vector<std::string> left;
  for (const auto& [id, o] : open_)
    if (o.scope == serial) left.push_back(o.what());
  if (left.empty()) return;
  // Left by an error on its way out (a refused transfer throws from a wait): that error is the
  // report, and the transfers it cut short are not the caller's to wait for.
  const bool unwinding = std::uncaught_exceptions() > 0;
  if (!left_behind_ && !unwinding) {  // the first time only: one collective called in a loop would repeat it
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
  std::erase_if(open_, [&](const auto& o) { return o.second.scope == serial; });  // reported once: not again
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
  MPI_Request end;
  MPI_Ibarrier(comm_, &end);
  watchdog::wait_collective(watch_, &end, "the end of the run");
  std::vector<MPI_Comm> comms{comm_};  // the data, and a transport's own (ipc: "ready"/"done")
  for (auto* t : {host_.get(), device_.get()})
    if (t)
      for (MPI_Comm c : t->channels()) comms.push_back(c);
  for (int round = 0; round < 3 * static_cast<int>(comms.size()); ++round) {
    std::string bytes;
    MPI_Status st;
    while (watchdog::take_arrived(comms[static_cast<std::size_t>(round) % comms.size()], bytes, st)) {
      if (problems++ < 3)
        log(Level::error) << "message left behind: rank " << st.MPI_SOURCE << " sent this rank "
                          << bytes.size() << " bytes " << wire_tag_origin(st.MPI_TAG)
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
  // The device transport first, while MPI still runs: NCCL's communicator is destroyed; ipc
  // closes every peer buffer this rank opened and passes a barrier, so that no rank frees
  // memory (below) that another still has open.
  const bool ipc_used = device_ && device_->kind() == Transport::ipc;
  device_.reset();
  host_.reset();
  for (auto& s : scratch_) detail::release(s.where, s.data);
  if (ipc_used && !finalized) ipc::free_retired();  // every buffer whose handle went out (cuda_side.hpp)
  // The watchdog's duplicate is ours to free (LeakSanitizer found it never was); after
  // MPI_Finalize it is gone with everything else.
  if (watch_ != MPI_COMM_NULL && !finalized) MPI_Comm_free(&watch_);
}

void Communicator::use_strict() {
  host_ = transport::make_strict(wire_);
  transport_ = Transport::strict;
  transport_reason_ = "--transport strict: host buffers through MPI under the contract's strictest rules";
}

void Communicator::use_sim_device() {
  where_ = Where::device;
  device_ = transport::make_staged(*host_);
  transport_reason_ = "--device sim: device buffers staged through host memory and " +
                      std::string(transport_ == Transport::strict ? "--transport strict" : "MPI");
  transport_ = Transport::staged;
}

bool Communicator::use_device(int gpu, Transport requested, std::string* error) {
  gpu_ = gpu;
  where_ = Where::device;
  // Which GPU each rank has, told apart as NCCL does: host name and PCI bus id. Every rank
  // gets every rank's, so every rank takes the same decision below.
  constexpr int kIdLen = 256;
  char mine[kIdLen] = {};
  std::snprintf(mine, sizeof mine, "%s %s", host_name_.c_str(), gpu_info(gpu).pci_bus_id.c_str());
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
    const bool nccl_loads = distinct && all_ok(transport::nccl_loads(&nccl_error));
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
  auto refuse = [&](const std::string& why) {
    *error = why;
    return false;
  };
  if (t == Transport::ipc && !one_host)
    return refuse(
        "--transport ipc: the ranks are on more than one host, and CUDA IPC shares memory inside one host "
        "only; use --transport nccl or staged");
  if (t == Transport::nccl) {
    if (!distinct)
      return refuse(
          "--transport nccl: " + sharing +
          ", and NCCL refuses two ranks on one GPU; use --transport ipc or staged (or fewer ranks)");
    if (requested == Transport::nccl && !all_ok(transport::nccl_loads(&nccl_error)))
      return refuse(nccl_error.empty() ? "--transport nccl: NCCL did not load on every rank" : nccl_error);
    std::string init_error;
    device_ = transport::make_nccl(wire_, &init_error);
    if (!all_ok(device_ != nullptr)) {
      device_.reset();
      return refuse(init_error.empty() ? "ncclCommInitRank failed on another rank" : init_error);
    }
  }
  if (t == Transport::ipc) device_ = transport::make_ipc(wire_);
  if (t == Transport::staged) device_ = transport::make_staged(*host_);
  transport_ = t;
  transport_reason_ = why;
  return true;
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

void Communicator::refuse_scratch(const void* data, std::size_t bytes, const char* call, const char* which) const {
  const auto* p = static_cast<const char*>(data);
  for (const auto& s : scratch_) {
    const auto* q = static_cast<const char*>(s.data);
    if (bytes > 0 && p < q + s.bytes && q < p + bytes)
      throw std::invalid_argument(std::string(call) + ": its " + which +
                                  " is the communicator's scratch (a View from comm.scratch_like), where the ring "
                                  "itself lands what it receives: the two would overwrite each other — give " +
                                  call + " a buffer of your own");
  }
}

transport::Backend& Communicator::transport_for(Where where) {
  return where == Where::device && device_ ? *device_ : *host_;
}

void Communicator::check_sendrecv(const void* out, std::size_t out_bytes, Where out_where, const void* in,
                                  std::size_t in_bytes, Where in_where) const {
  // Both move at once: memory that is received into while it is sent from goes out half
  // overwritten (MPI_Sendrecv forbids it). The landing place must be memory of its own.
  const char *o = static_cast<const char*>(out), *i = static_cast<const char*>(in);
  if (out_bytes > 0 && in_bytes > 0 && o < i + in_bytes && i < o + out_bytes)
    throw std::invalid_argument(
        "rank " + std::to_string(rank_) + "'s sendrecv receives into memory that it sends from at the same time (" +
        std::to_string(in_bytes) + " bytes received, " + std::to_string(out_bytes) +
        " sent, overlapping): what arrives overwrites what goes out — receive into memory that nothing sent or "
        "kept at this step uses (comm.scratch_like gives such memory).");
  // Only staged moves device buffers through MPI, so only there may a host buffer meet a device one.
  if (out_where != in_where && device_ && device_->kind() != Transport::staged)
    throw std::invalid_argument(std::string("sendrecv: one buffer in host and one in device memory; with ") +
                                "--transport " + transport_name(transport_) +
                                " both sides of every transfer must be device buffers");
}

Request Communicator::start(trace::Op op, const void* data, std::size_t count, DType t, Where where,
                            int chunk, int peer, int tag) {
  const bool send = op == trace::Op::send;
  const std::size_t bytes = count * dtype_size(t);
  trace::note_transfer();  // a loop that transfers is not spinning (trace::Collective::at)
  Request r;
  r.op_ = {.send = send,
           .data = const_cast<void*>(data),
           .count = count,
           .dtype = t,
           .peer = peer,
           .tag = tag,
           .wire_tag = wire_tag(tag)};
  if (trace::enabled()) {
    trace::Event& e = r.event_.emplace(trace::event_here(op));
    e.peer = peer;
    e.chunk = chunk;
    e.bytes = bytes;
    e.t0 = trace::now_us();
    if (where == Where::device) {  // even when MPI moves a host copy of it (staged)
      e.where = "device";
      e.transport = transport_name(transport_);
    }
  }
  // Memory a posted receive writes into holds its message only once that receive is waited for:
  // sending from it, or receiving into it again, before then reads or races what is not there
  // yet (MPI leaves it undefined; on a fast network the old values go out, and nothing says so).
  const char* begin = static_cast<const char*>(data);
  for (const auto& [id, o] : open_)
    if (!o.send && bytes > 0 && begin < o.data + o.bytes && o.data < begin + bytes)
      throw std::runtime_error("rank " + std::to_string(rank_) + "'s " + (send ? "send to" : "receive from") +
                               " rank " + std::to_string(peer) + " uses memory that its " + o.what() +
                               " still writes into: a receive's buffer holds the message only after wait() — "
                               "wait for that receive before " + (send ? "sending" : "receiving into") +
                               " the same memory.");
  r.transport_ = &transport_for(where);
  const watchdog::Pending call = r.op_.pending();
  if (peer < 0 || peer >= size_) watchdog::refuse_bad_peer(comm_, call);  // (MPI: -1 any rank, -2 none)
  if (data == nullptr && count > 0) watchdog::refuse_no_memory(call, count);  // (MPI: MPI_ERR_BUFFER, bare)
  const watchdog::Calling calling(call);  // an MPI error while posting is about this call
  r.posted_ = r.transport_->post(r.op_);
  r.id_ = ++next_id_;
  const auto& ctx = trace::context();
  open_.emplace(r.id_, Open{send, peer, tag, ctx.step, begin, bytes, ctx.coll, ctx.phase, trace::scope_serial()});
  return r;
}

void Communicator::complete(Request* const* rs, std::size_t n) {
  // One wait per transport among the requests (two at most: a host and a device one).
  static thread_local std::vector<transport::Posted*> ops;  // kept: no allocation per wait
  static thread_local std::vector<watchdog::Pending> what;
  for (transport::Backend* t : {device_.get(), host_.get()}) {
    if (t == nullptr) continue;
    ops.clear();
    what.clear();
    for (std::size_t i = 0; i < n; ++i)
      if (rs[i]->posted_ && rs[i]->transport_ == t) {
        ops.push_back(rs[i]->posted_.get());
        what.push_back(rs[i]->op_.pending());
      }
    if (!ops.empty()) t->wait(ops.data(), what.data(), ops.size());
  }
  // Finished: the trace events, and the record of open transfers.
  for (std::size_t i = 0; i < n; ++i) {
    Request& r = *rs[i];
    if (!r.posted_) continue;
    if (r.event_) {
      r.posted_->annotate(*r.event_);
      finish_event(std::move(*r.event_), r.op_);
      r.event_.reset();
    }
    r.posted_.reset();
    r.transport_ = nullptr;
    open_.erase(r.id_);
    r.id_ = 0;
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

// The calls every rank makes are watched too (watchdog::wait_collective): they never stop a run,
// but a rank waiting in one tells a hung rank that it is past the transfer it waits for.
void Communicator::barrier() {
  MPI_Request r;
  MPI_Ibarrier(comm_, &r);
  watchdog::wait_collective(watch_, &r, "comm.barrier");
}

namespace {
template <class T> T reduced(T v, MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Comm watch, const char* name) {
  T out{};
  MPI_Request r;
  MPI_Iallreduce(&v, &out, 1, type, op, comm, &r);
  watchdog::wait_collective(watch, &r, name);
  return out;
}
}  // namespace

bool Communicator::all_ok(bool ok) { return reduced(ok ? 1 : 0, MPI_INT, MPI_MIN, comm_, watch_, "comm.all_ok") == 1; }
double Communicator::sum(double v) { return reduced(v, MPI_DOUBLE, MPI_SUM, comm_, watch_, "comm.sum"); }
double Communicator::max(double v) { return reduced(v, MPI_DOUBLE, MPI_MAX, comm_, watch_, "comm.max"); }
long long Communicator::sum(long long v) { return reduced(v, MPI_LONG_LONG, MPI_SUM, comm_, watch_, "comm.sum"); }

std::vector<std::string> Communicator::gather_strings(const std::string& mine) {
  int len = static_cast<int>(mine.size());
  std::vector<int> lens(rank_ == 0 ? size_ : 0), offs(rank_ == 0 ? size_ : 0);
  MPI_Request r;
  MPI_Igather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, 0, comm_, &r);
  watchdog::wait_collective(watch_, &r, "comm.gather_strings");
  std::string all;
  if (rank_ == 0) {
    std::exclusive_scan(lens.begin(), lens.end(), offs.begin(), 0);  // where each rank's string starts
    all.resize(static_cast<std::size_t>(offs.back() + lens.back()));
  }
  MPI_Gatherv(mine.data(), len, MPI_CHAR, all.data(), lens.data(), offs.data(), MPI_CHAR, 0, comm_);
  std::vector<std::string> out;
  if (rank_ == 0)
    for (int r = 0; r < size_; ++r) out.push_back(all.substr(offs[r], lens[r]));
  return out;
}

}  // namespace ringlab
