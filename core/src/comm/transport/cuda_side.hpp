// The GPU transports' CUDA side, behind a CUDA-free interface: ipc.cpp and nccl.cpp (and the
// device allocator, ops_cuda.cu) call these; nothing outside core/src does.
//   ipc_cuda.cpp / ipc_nocuda.cpp     which allocation a pointer is in, its IPC handle, opening
//   nccl_cuda.cpp / nccl_none.cpp     NCCL through dlopen, and the kit's NCCL stream
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "ringlab/base/dtype.hpp"

namespace ringlab::ipc {
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
}  // namespace ringlab::ipc

namespace ringlab::transport {
struct Op;  // one send or receive (transport.hpp)
}  // namespace ringlab::transport

namespace ringlab::nccl {
// Loads libnccl.so.2 (once). False, with *error, when it cannot be found or lacks a symbol.
bool load(std::string* error);
// ncclCommInitRank the nccl-tests way: rank 0's ncclUniqueId broadcast over `mpi_comm` (an
// MPI_Comm*). Returns the communicator (opaque), or nullptr with *error.
void* init(void* mpi_comm, int rank, int size, std::string* error);
void destroy(void* comm);
// ncclCommAbort: what the watchdog calls before it stops a run hung inside NCCL.
void abort(void* comm);
// One group (ncclGroupStart ... ncclGroupEnd) of sends and receives, enqueued on the kit's NCCL
// stream (ordered with the kernels on the default stream). Returns once enqueued: idle() tells
// when it has finished.
void start_group(void* comm, const transport::Op* ops, std::size_t n);
void start_allreduce_sum(void* comm, DType t, const void* in, void* out, std::size_t count);
void start_broadcast(void* comm, DType t, void* buf, std::size_t count, int root);
// True once everything enqueued on the NCCL stream has finished (cudaStreamQuery); throws with
// NCCL's words when the communicator has failed (ncclCommGetAsyncError).
bool idle(void* comm);
}  // namespace ringlab::nccl
