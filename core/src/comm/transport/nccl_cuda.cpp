// The nccl transport's NCCL side (cuda_side.hpp). NCCL is opened at run time
// (dlopen("libnccl.so.2")) when a communicator chooses it, not linked: the lessons then start on
// every machine, NCCL or not, and only a run that asks for NCCL needs it. Each function below is
// the NCCL call of the same name through that table; the calls are nccl-tests' (common.cu):
//   rank 0: ncclGetUniqueId -> MPI_Bcast to every rank -> ncclCommInitRank on each
//   ncclGroupStart; ncclSend/ncclRecv ...; ncclGroupEnd   (one group per wait: transport.hpp)
// Everything is enqueued on one stream made with cudaStreamCreate (a blocking stream, as in
// nccl-tests): it runs in order with the kit's kernels and copies on the default stream. The
// host never blocks inside CUDA waiting for it: nccl.cpp polls idle() under the watchdog, so a
// group whose partner never comes is reported (and the communicator aborted), not a silent hang.
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <mpi.h>
#include <nccl.h>

#include <stdexcept>
#include <string>
#include <type_traits>

#include "cuda_side.hpp"
#include "ringlab/comm/transport.hpp"

namespace ringlab::nccl {
namespace {

// The NCCL functions the kit calls: Library's member `Send` is ncclSend, with the type nccl.h
// gives it, looked up by that name in the library (load()).
// clang-format off
#define RINGLAB_NCCL_FUNCTIONS(X)                                                     \
  X(GetUniqueId) X(CommInitRank) X(CommDestroy) X(CommAbort) X(CommGetAsyncError)     \
  X(GroupStart) X(GroupEnd) X(Send) X(Recv) X(AllReduce) X(Broadcast) X(GetErrorString)
// clang-format on
struct Library {
#define RINGLAB_NCCL_MEMBER(name) decltype(&nccl##name) name = nullptr;
  RINGLAB_NCCL_FUNCTIONS(RINGLAB_NCCL_MEMBER)
#undef RINGLAB_NCCL_MEMBER
};
Library g_nccl;
bool g_loaded = false;
cudaStream_t g_stream = nullptr;  // made by init(), destroyed by destroy()

void check(ncclResult_t r, const char* what) {
  if (r != ncclSuccess) throw std::runtime_error(std::string(what) + ": " + g_nccl.GetErrorString(r));
}
void check(cudaError_t err, const char* what) {
  if (err != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(err));
}

ncclDataType_t nccl_type(DType t) {
  const ncclDataType_t types[] = {ncclFloat32, ncclFloat64, ncclInt32, ncclInt64};  // in DType's order
  return types[static_cast<int>(t)];
}

}  // namespace

bool load(std::string* error) {
  if (g_loaded) return true;
  void* lib = dlopen("libnccl.so.2", RTLD_NOW | RTLD_GLOBAL);
#ifdef RINGLAB_NCCL_LIBRARY  // where CMake found it when the kit was built, if not on the search path
  if (!lib) lib = dlopen(RINGLAB_NCCL_LIBRARY, RTLD_NOW | RTLD_GLOBAL);
#endif
  if (!lib) {
    *error = std::string("--transport nccl: cannot load libnccl.so.2 (") + dlerror() +
             "); put NCCL's lib folder on LD_LIBRARY_PATH, or use --transport ipc or staged";
    return false;
  }
  bool ok = true;
  auto sym = [&](auto& fn, const char* name) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
    if (!fn && ok) {
      *error = std::string("--transport nccl: libnccl.so.2 has no ") + name + " (NCCL 2.7 or newer needed)";
      ok = false;
    }
  };
#define RINGLAB_NCCL_LOAD(name) sym(g_nccl.name, "nccl" #name);
  RINGLAB_NCCL_FUNCTIONS(RINGLAB_NCCL_LOAD)
#undef RINGLAB_NCCL_LOAD
  g_loaded = ok;
  return ok;
}

void* init(void* mpi_comm, int rank, int size, std::string* error) {
  MPI_Comm comm = *static_cast<MPI_Comm*>(mpi_comm);
  ncclUniqueId id{};
  ncclResult_t r = ncclSuccess;
  if (rank == 0) r = g_nccl.GetUniqueId(&id);
  MPI_Bcast(&r, sizeof r, MPI_BYTE, 0, comm);  // so every rank stops if rank 0 could not
  if (r != ncclSuccess) {
    *error = std::string("ncclGetUniqueId on rank 0: ") + g_nccl.GetErrorString(r);
    return nullptr;
  }
  MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, comm);
  ncclComm_t nc = nullptr;
  if (g_stream == nullptr && cudaStreamCreate(&g_stream) != cudaSuccess) {
    *error = "cudaStreamCreate for NCCL failed";
    return nullptr;
  }
  r = g_nccl.CommInitRank(&nc, size, id, rank);
  if (r != ncclSuccess) {
    *error = std::string("ncclCommInitRank: ") + g_nccl.GetErrorString(r);
    return nullptr;
  }
  return nc;
}

void destroy(void* comm) {
  if (comm == nullptr) return;
  cudaDeviceSynchronize();
  g_nccl.CommDestroy(static_cast<ncclComm_t>(comm));
  if (g_stream) cudaStreamDestroy(g_stream);
  g_stream = nullptr;
}

void abort(void* comm) {
  if (comm != nullptr && g_loaded) g_nccl.CommAbort(static_cast<ncclComm_t>(comm));
}

void start_group(void* comm, const transport::Op* ops, std::size_t n) {
  auto nc = static_cast<ncclComm_t>(comm);
  check(g_nccl.GroupStart(), "ncclGroupStart");
  for (std::size_t i = 0; i < n; ++i) {
    const transport::Op& o = ops[i];
    if (o.count == 0) continue;  // nothing to move (both sides see the same count)
    if (o.send) check(g_nccl.Send(o.data, o.count, nccl_type(o.dtype), o.peer, nc, g_stream), "ncclSend");
    else check(g_nccl.Recv(o.data, o.count, nccl_type(o.dtype), o.peer, nc, g_stream), "ncclRecv");
  }
  check(g_nccl.GroupEnd(), "ncclGroupEnd");
}

void start_allreduce_sum(void* comm, DType t, const void* in, void* out, std::size_t count) {
  if (count == 0) return;  // every rank has the same count
  check(g_nccl.AllReduce(in, out, count, nccl_type(t), ncclSum, static_cast<ncclComm_t>(comm), g_stream),
        "ncclAllReduce");
}

void start_broadcast(void* comm, DType t, void* buf, std::size_t count, int root) {
  if (count == 0) return;
  check(g_nccl.Broadcast(buf, buf, count, nccl_type(t), root, static_cast<ncclComm_t>(comm), g_stream),
        "ncclBroadcast");
}

bool idle(void* comm) {
  const cudaError_t state = cudaStreamQuery(g_stream);
  if (state == cudaSuccess) return true;
  if (state != cudaErrorNotReady) check(state, "cudaStreamQuery (the NCCL stream)");
  ncclResult_t async = ncclSuccess;
  check(g_nccl.CommGetAsyncError(static_cast<ncclComm_t>(comm), &async), "ncclCommGetAsyncError");
  if (async != ncclSuccess && async != ncclInProgress) check(async, "NCCL (asynchronous error)");
  return false;
}

}  // namespace ringlab::nccl
