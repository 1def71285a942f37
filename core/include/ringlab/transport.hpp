// The GPU transports' device side, behind a CUDA-free interface (the communicator, comm.cpp,
// calls these; lessons call only the nccl:: collectives at the end, as benchmark rows).
//
//   ipc   ranks on one host map each other's GPU buffers (cudaIpcGetMemHandle /
//         cudaIpcOpenMemHandle) and copy device to device: NCCL's P2P transport inside a node,
//         written out. Works with several ranks on one GPU.
//   nccl  NCCL's own send/recv (and allreduce/broadcast for the benchmark rows). NCCL is loaded
//         when this transport is chosen (dlopen of libnccl.so.2), so no lesson links it and
//         the kit starts on machines without it.
// Implemented in ipc_cuda.cpp and nccl_cuda.cpp; transport_nocuda.cpp refuses without CUDA.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "ringlab/buffer.hpp"
#include "ringlab/dtype.hpp"

namespace ringlab {
class Communicator;

namespace ipc {
// What a sender tells its receiver ("ready"): where to read the bytes, as a handle to the
// whole allocation (CUDA IPC handles name allocations, not pointers) and an offset into it.
struct Target {
  unsigned char handle[64];   // cudaIpcMemHandle_t, opaque
  std::uint64_t serial = 0;   // which allocation of the owner's (handles may repeat once freed)
  std::uint64_t offset = 0;   // where the View starts in it
  std::uint64_t bytes = 0;    // how many bytes are sent
  std::uint64_t pointer = 0;  // the View's own address: used as is when the reader is the owner
};
// Every device allocation the kit makes (Buffer, comm.scratch_like) is registered, so that a
// pointer into it can be turned into a Target (device_ops::allocate and release call these).
void remember(void* base, std::size_t bytes);
// CUDA: "calling cudaFree on an exported memory region before calling cudaIpcCloseMemHandle in
// the importing context will result in undefined behavior". So an allocation whose handle was
// given out is never freed while the run goes on: release() retires it (true: do not free),
// a later allocation of the same size takes it back (reuse(): the peers' mappings of it stay
// valid), and free_retired() frees them all at teardown, after every rank has closed its
// handles and passed a barrier.
bool retire(void* base);
void* reuse(std::size_t bytes);  // nullptr when no retired allocation has that size
void free_retired();
// The Target for `bytes` at `p`; throws when p is not inside a registered allocation.
Target target_of(void* p, std::size_t bytes);
// The peer's Target mapped into this process: opened once per (peer, allocation), kept open.
void* open(int peer, const Target& t);
// Closes every handle this process opened (teardown: then a barrier, then free).
void close_all();
}  // namespace ipc

namespace nccl {
// Loads libnccl.so.2 (once). False, with *error, when it cannot be found or lacks a symbol.
bool load(std::string* error);
// ncclCommInitRank the nccl-tests way: rank 0's ncclUniqueId broadcast over `mpi_comm`.
// Returns the communicator (opaque), or nullptr with *error.
void* init(void* mpi_comm, int rank, int size, std::string* error);
void destroy(void* comm);
// One group (ncclGroupStart ... ncclGroupEnd) of sends and receives on the kit's NCCL stream
// (made by init, ordered with the default stream), then a wait for it: when it returns, every
// buffer is sent or filled.
struct Op {
  bool send;
  void* data;
  std::size_t count;
  DType dtype;
  int peer;
};
void group(void* comm, const Op* ops, std::size_t n);
void allreduce_sum(void* comm, DType t, const void* in, void* out, std::size_t count);
void broadcast(void* comm, DType t, void* buf, std::size_t count, int root);
}  // namespace nccl

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
