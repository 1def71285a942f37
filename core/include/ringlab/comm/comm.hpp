// The communicator: who am I (world and local rank), and typed point-to-point transfers of
// Views. Lessons move data only through it, so every transfer can be traced, and so that a
// device transport can move CUDA buffers (View::where() == Where::device) without lesson code
// changing: the transport is chosen per call from where the buffer lives. What a transport
// promises, and so what an algorithm may rely on, is the contract in ringlab/transport.hpp.
//
//   auto& comm = rt.comm();
//   comm.send(View(buf), /*peer=*/1);
//   comm.sendrecv(out, next, in, prev);   // send and receive at once: cannot deadlock a ring
#pragma once
#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "ringlab/base/buffer.hpp"
#include "ringlab/comm/device.hpp"
#include "ringlab/base/dtype.hpp"
#include "ringlab/comm/ops.hpp"
#include "ringlab/trace/trace.hpp"
#include "ringlab/comm/transport.hpp"
#include "ringlab/comm/watchdog.hpp"

namespace ringlab {

// Tags on the wire. A message carries the caller's tag (0..kMaxTag) AND the name of the
// collective it was sent in (the trace::Collective scope; none outside one), so a message that
// one collective sends too many cannot be taken by the next, correct collective: it stays
// unreceived, and the check at the end of the run names the collective that sent it. (On an
// MPI whose MPI_TAG_UB is too small for both, the tag is the caller's alone.)
inline constexpr int kMaxTag = 65535;
int wire_tag(int tag);                     // the MPI tag for `tag` in the current scope
std::string wire_tag_origin(int mpi_tag);  // "ring_allreduce (tag 0)": what sent such a message

// A transfer in flight (isend / irecv). Finish it with Communicator::wait or wait_all: one that
// is never finished is reported when its collective returns (small messages happen to arrive
// anyway, large ones do not, so a missing wait is a bug even when the numbers come out right).
class [[nodiscard]] Request {
  friend class Communicator;
  std::shared_ptr<transport::Posted> posted_;  // the transport's own state for it
  transport::Backend* transport_ = nullptr;    // which transport moves it
  std::uint64_t id_ = 0;                       // the communicator's record of it, until finished
  transport::Op op_;  // what was posted: the watchdog reports it if the wait never ends
  // What the trace records when the transfer completes (with op_'s values, when small); none
  // when tracing is off.
  std::optional<trace::Event> event_;
};

class Communicator {
 public:
  explicit Communicator(MPI_Comm comm);
  // Frees the scratch memory and the watchdog's duplicate of the communicator (Runtime destroys
  // it before MPI_Finalize).
  ~Communicator();
  Communicator(const Communicator&) = delete;  // one owner of that memory and that duplicate
  Communicator& operator=(const Communicator&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  int local_rank() const { return local_rank_; }  // rank among the processes on this host
  int local_size() const { return local_size_; }
  const std::string& host() const { return host_name_; }
  MPI_Comm raw() const { return comm_; }
  // Where this rank's collectives keep their data: host memory, or its GPU's with --device cuda.
  Where where() const { return where_; }
  int gpu() const { return gpu_; }  // -1 on the CPU
  // How device buffers move between ranks (on the CPU: strict, or auto for plain MPI), chosen
  // once (Runtime::select_device), and why.
  Transport transport() const { return transport_; }
  const std::string& transport_reason() const { return transport_reason_; }
  // Puts this rank's collectives on GPU `gpu` (already cudaSetDevice'd) with the transport
  // `requested` resolves to. False, with *error, when that transport cannot run here.
  // Collective: every rank calls it, and every rank gets the same answer.
  //   auto: nccl when every rank has a GPU of its own (host + PCI bus id differ, as NCCL
  //         requires) and NCCL loads; else ipc when all ranks are on one host; else staged.
  bool use_device(int gpu, Transport requested, std::string* error);
  // Host buffers under --transport strict (transport.hpp) instead of plain MPI.
  void use_strict();
  // --device sim: this rank's collectives on the simulated GPU (sim_device.hpp), its buffers
  // moved as staged moves a GPU's, through the host transport (mpi, or strict if chosen first).
  void use_sim_device();
  // The transport that moves device buffers (nullptr on the CPU): the library rows use it.
  transport::Backend* device_transport() const { return device_.get(); }

  // Blocking transfers: posted and waited for at once. A send takes a View<float> or View<const float>.
  template <class T> void send(View<T> buf, int peer, int tag = 0) { wait_now(isend(buf, peer, tag)); }
  template <class T> void recv(View<T> buf, int peer, int tag = 0) { wait_now(irecv(buf, peer, tag)); }
  template <class T> void sendrecv(View<const T> out, int dest, View<T> in, int source, int tag = 0) {
    check_sendrecv(out.data(), out.bytes(), out.where(), in.data(), in.bytes(), in.where());
    // MPI_Sendrecv's shape: post the receive, post the send, wait for both (one group).
    Request rin = irecv(in, source, tag), rout = isend(out, dest, tag);
    Request* both[2] = {&rin, &rout};
    complete(both, 2);
  }
  // So a View<T> (non-const) can be sent without spelling the conversion.
  template <class T> void sendrecv(View<T> out, int dest, View<T> in, int source, int tag = 0) {
    sendrecv(View<const T>(out), dest, in, source, tag);
  }

  // Non-blocking transfers: start now, finish with wait()/wait_all(). A receive's memory is the
  // receive's until it is waited for: a send from it, or another receive into it, is refused
  // with one line naming both transfers (MPI would send what is not there yet, silently).
  template <class T> [[nodiscard]] Request isend(View<T> buf, int peer, int tag = 0) {
    return start(trace::Op::send, buf.data(), buf.size(), dtype_of<T>(), buf.where(), buf.chunk(), peer, tag);
  }
  template <class T> [[nodiscard]] Request irecv(View<T> buf, int peer, int tag = 0) {
    return start(trace::Op::recv, buf.data(), buf.size(), dtype_of<T>(), buf.where(), buf.chunk(), peer, tag);
  }
  void wait(Request& r);
  void wait_all(std::vector<Request>& rs);

  // Scratch memory for an algorithm (where an incoming chunk lands before it is added): a View
  // of like.size() elements, in the same memory as `like` (host, or the GPU's) and labelled
  // with its chunk. The communicator owns it: allocated on first use, grown when a larger one
  // is asked for, kept between calls (so a benchmark times the algorithm, not the allocator),
  // freed with the communicator. `slot` picks one of several buffers used at the same time
  // (the fast ring receives into two); a later call with the same slot reuses the memory.
  template <class T> View<std::remove_const_t<T>> scratch_like(View<T> like, int slot = 0) {
    using U = std::remove_const_t<T>;
    void* p = scratch(like.where(), slot, like.bytes());
    return View<U>(static_cast<U*>(p), like.size(), like.where(), like.chunk());
  }

  // Throws "CALL: its WHICH is the communicator's scratch …" when [data, data + bytes) overlaps
  // scratch memory: for an algorithm that receives into its scratch and was handed a View of it.
  void refuse_scratch(const void* data, std::size_t bytes, const char* call, const char* which) const;

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

  // No message left behind: called by Runtime at the end of the run, on every rank. Reports
  // (one line each, naming step and peer) every isend/irecv never finished and every message
  // that reached this rank but no receive took, with the collective that sent it. False when
  // there was any, or when a collective returned with transfers open (reported then).
  bool finish();
  // Whether a collective has returned with a transfer never finished (reported when it did).
  // Such a transfer is not in the trace: a check comparing the trace with a schedule stands aside.
  bool left_behind() const { return left_behind_; }

  // Called as each collective scope closes: reports the transfers it left unfinished.
  void scope_ended(const char* name, std::int64_t serial);

 private:
  void* scratch(Where where, int slot, std::size_t bytes);
  struct Scratch {
    Where where;
    int slot;
    void* data;
    std::size_t bytes;
  };
  std::vector<Scratch> scratch_;

  // Every transfer is a post (start) and a wait (complete); the blocking calls do both.
  Request start(trace::Op op, const void* data, std::size_t count, DType t, Where where, int chunk, int peer,
                int tag);
  void complete(Request* const* rs, std::size_t n);
  transport::Backend& transport_for(Where where);
  void wait_now(Request r) { wait(r); }
  // Throws where the transport cannot mix the two memories, or where the two buffers overlap.
  void check_sendrecv(const void* out, std::size_t out_bytes, Where out_where, const void* in, std::size_t in_bytes,
                      Where in_where) const;

  MPI_Comm comm_;
  MPI_Comm watch_ = MPI_COMM_NULL;  // the watchdog's duplicate of comm_ (null when it is off)
  transport::Wire wire_;
  std::unique_ptr<transport::Backend> host_;    // host buffers: mpi, or strict
  std::unique_ptr<transport::Backend> device_;  // device buffers: staged, ipc or nccl; none on the CPU
  int rank_ = 0, size_ = 1, local_rank_ = 0, local_size_ = 1;
  std::string host_name_;
  Where where_ = Where::host;
  int gpu_ = -1;
  Transport transport_ = Transport::automatic;
  std::string transport_reason_;
  // Transfers started (isend/irecv) and not yet finished: what each is, and in which scope.
  struct Open {  // put into words only when reported (a request costs no formatting)
    bool send;
    int peer, tag, step;
    const char* data;  // the memory it reads (send) or writes (receive)
    std::size_t bytes;
    const char *coll, *phase;  // the trace context's names: string literals, they outlive the run
    std::int64_t scope;
    std::string what() const;  // "isend to rank 2 (tag 0, 16 bytes) in ring_allreduce, reduce-scatter step 1"
  };
  std::map<std::uint64_t, Open> open_;
  std::uint64_t next_id_ = 0;
  bool left_behind_ = false;  // something was reported: the run must not pass
};

}  // namespace ringlab
