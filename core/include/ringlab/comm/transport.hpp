// How bytes move between ranks: one small interface, one implementation per transport (gloo's
// shape). The Communicator (comm.hpp) is the only caller; algorithms, lessons and exercises never
// name a transport. Each implementation is one file in core/src/comm/transport/:
//
//   mpi     host buffers through Open MPI (MPI_Isend / MPI_Irecv); checks rule 4's sizes mpi.cpp
//   strict  host buffers through MPI under the strictest rule below: what a device
//           transport does, modelled on a machine with no GPU (--transport strict)   strict.cpp
//   staged  device buffers: cudaMemcpy to pinned host memory, MPI, copy back        staged.cpp
//   ipc     device buffers of ranks on one host: CUDA IPC, device to device             ipc.cpp
//   nccl    device buffers: ncclSend / ncclRecv, one GPU per rank                      nccl.cpp
//
// ======================= THE CONTRACT: what an algorithm may rely on =======================
// Every transport honours these four rules, and an algorithm may rely on nothing more. MPI
// promises much more (a posted isend/irecv moves in the background whatever order the waits
// come in); NCCL does not, and an algorithm written against MPI's promise can deadlock there.
//
//  1. Posting moves nothing. isend and irecv only post an operation; nothing is promised to
//     move until this rank waits (wait, wait_all, or a blocking send/recv/sendrecv, which post
//     and then wait).
//  2. A wait starts every operation this rank has posted and not yet started, as ONE group,
//     and may return only when that whole group is done (not just the request it was asked
//     for). NCCL: ncclGroupStart, every posted ncclSend/ncclRecv, ncclGroupEnd, then wait.
//  3. A send completes only once its receive has been started (MPI_Issend): no buffering.
//  4. Between two ranks, messages match in the order they were posted, and a send and its
//     receive have the same size (NCCL matches by order, not by tag).
//
// What follows for an algorithm: at every wait, each operation in the group this rank starts
// must have its partner in a group the peer starts *without first waiting for anything this
// rank starts later*. Otherwise the groups wait for each other around the ranks: a deadlock.
// The simplest shape that is always safe, and the kit's algorithms use it: each step posts its
// sends and the receives that match them (the same message index on both sides), then waits.
//
//   safe:    post recv k, post send k, wait        every rank's group k meets its peers' group k
//   unsafe:  post recv k, post recv k+1, post send k, wait
//            recv k+1 is the peer's send k+1, which the peer posts only after its own wait
//            returns: with 3 or more ranks in a ring, every wait waits on the next rank's.
//
// --transport strict enforces all four rules on the CPU (nothing starts before a wait, one
// group per wait, MPI_Issend, receives matched in order with any tag and checked for tag and
// size), so CI proves on a machine with no GPU what only a multi-GPU machine could show. An
// algorithm that hangs under strict is reported by the watchdog (exit 3), never a silent hang.
// The mpi transport checks rule 4's sizes too: MPI takes a shorter message into a longer
// receive without a word, and the bytes past it keep what they held.
// ==========================================================================================
#pragma once
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "ringlab/base/buffer.hpp"
#include "ringlab/comm/device.hpp"
#include "ringlab/base/dtype.hpp"
#include "ringlab/comm/mpi_datatype.hpp"
#include "ringlab/trace/trace.hpp"
#include "ringlab/comm/watchdog.hpp"

namespace ringlab {
class Communicator;

namespace transport {

// One send or receive, as the Communicator hands it to a transport.
struct Op {
  bool send = false;
  void* data = nullptr;  // read (send) or written (receive)
  std::size_t count = 0;
  DType dtype = DType::f32;
  int peer = -1;
  int tag = 0;       // the caller's tag (0..kMaxTag)
  int wire_tag = 0;  // the tag on the wire: the caller's and the collective's (comm.hpp)
  watchdog::Pending pending() const { return {send, peer, tag, count * dtype_size(dtype)}; }
};

// A transport's own state for one posted operation (an MPI request, a staging buffer, an ipc
// frame, a place in an NCCL group). The Request that posted it holds it until it is finished.
struct Posted {
  virtual ~Posted() = default;
  // Adds what the transport measured to the transfer's trace event (ipc: the copy's GPU time).
  virtual void annotate(trace::Event&) const {}
};

// What every transport is handed: the ranks' communicator and the watchdog's duplicate of it
// (MPI_COMM_NULL when the watchdog is off).
struct Wire {
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm watch = MPI_COMM_NULL;
  int rank = 0, size = 1;
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual Transport kind() const = 0;
  // Posts one operation (the contract, rule 1: it need not move yet).
  virtual std::shared_ptr<Posted> post(const Op& op) = 0;
  // Returns when every one of ops[0..n) is finished (rule 2: it may start and finish more).
  // what[i] describes ops[i] for the watchdog, which reports a wait that never ends.
  virtual void wait(Posted* const* ops, const watchdog::Pending* what, std::size_t n) = 0;
  // Communicators besides the ranks' own where this transport's messages travel, so the
  // end-of-run check can find any nobody received.
  virtual std::vector<MPI_Comm> channels() const { return {}; }
};

std::unique_ptr<Backend> make_mpi(const Wire& wire);
std::unique_ptr<Backend> make_strict(const Wire& wire);
// Device buffers through pinned host memory and `host` (the mpi transport).
std::unique_ptr<Backend> make_staged(Backend& host);
std::unique_ptr<Backend> make_ipc(const Wire& wire);
// nullptr with *error when NCCL cannot start on every rank.
std::unique_ptr<Backend> make_nccl(const Wire& wire, std::string* error);
// Whether NCCL loads here (libnccl.so.2 found, every symbol present); *error says why not.
bool nccl_loads(std::string* error);

}  // namespace transport

// The library rows of the benchmarks (lessons 05 and 03): NCCL's own collectives on this
// communicator's NCCL communicator. Only when comm.transport() == Transport::nccl.
void nccl_allreduce(Communicator& comm, DType t, const void* in, void* out, std::size_t count);
void nccl_broadcast(Communicator& comm, DType t, void* buf, std::size_t count, int root);
template <class T> void nccl_allreduce(Communicator& comm, View<const T> in, View<T> out) {
  nccl_allreduce(comm, dtype_of<T>(), in.data(), out.data(), out.size());
}
template <class T> void nccl_broadcast(Communicator& comm, View<T> buf, int root) {
  nccl_broadcast(comm, dtype_of<T>(), buf.data(), buf.size(), root);
}

}  // namespace ringlab
