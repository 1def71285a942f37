// The ipc transport's CUDA side (cuda_side.hpp): which allocation a device pointer lies in, its IPC handle,
// and the peers' allocations opened in this process. ipc.cpp runs the protocol around it.
//
// CUDA IPC names allocations, not pointers: cudaIpcGetMemHandle takes the base of a cudaMalloc
// allocation and cudaIpcOpenMemHandle maps that whole allocation. A View is usually a chunk in
// the middle of one, so a Target is (handle, offset). The base is found in a registry of the
// kit's own allocations (every device Buffer and scratch buffer comes from
// device_ops::allocate), which keeps the runtime API enough: no driver library.
#include <cuda_runtime_api.h>

#include <cstring>
#include <iterator>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>

#include "cuda_side.hpp"

namespace ringlab::ipc {
namespace {

void check(cudaError_t err, const char* what) {
  if (err != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(err));
}

struct Allocation {
  std::size_t bytes;
  std::uint64_t serial;
  bool have_handle = false;  // asked for on first use, then kept with the allocation
  cudaIpcMemHandle_t handle{};
};
std::mutex g_mutex;
std::map<char*, Allocation> g_allocations;  // by base address
std::uint64_t g_next_serial = 0;
// Given out once and released since, by size (see retire()).
std::multimap<std::size_t, std::pair<char*, Allocation>> g_retired;
// Peers' allocations opened here: (peer rank, their serial) -> base address in this process.
std::map<std::pair<int, std::uint64_t>, void*> g_opened;

}  // namespace

void remember(void* base, std::size_t bytes) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_allocations[static_cast<char*>(base)] = Allocation{bytes, ++g_next_serial};
}

bool retire(void* base) {
  std::lock_guard<std::mutex> lock(g_mutex);
  auto it = g_allocations.find(static_cast<char*>(base));
  if (it == g_allocations.end()) return false;
  const bool exported = it->second.have_handle;
  if (exported) g_retired.emplace(it->second.bytes, *it);
  g_allocations.erase(it);
  return exported;
}

void* reuse(std::size_t bytes) {
  std::lock_guard<std::mutex> lock(g_mutex);
  auto it = g_retired.find(bytes);
  if (it == g_retired.end()) return nullptr;
  char* base = it->second.first;
  g_allocations.insert(it->second);  // same serial, same handle: peers' mappings still hold
  g_retired.erase(it);
  return base;
}

void free_retired() {
  std::lock_guard<std::mutex> lock(g_mutex);
  for (auto& [bytes, allocation] : g_retired) cudaFree(allocation.first);
  g_retired.clear();
}

Target target_of(void* p, std::size_t bytes) {
  std::lock_guard<std::mutex> lock(g_mutex);
  char* c = static_cast<char*>(p);
  auto it = g_allocations.upper_bound(c);  // the first allocation after p; p is in the one before
  if (it == g_allocations.begin() || c + bytes > std::prev(it)->first + std::prev(it)->second.bytes)
    throw std::runtime_error(
        "ipc transport: a device buffer the kit did not allocate (use Buffer or comm.scratch_like): CUDA IPC "
        "can only share whole allocations it knows the start of");
  --it;
  Allocation& a = it->second;
  if (!a.have_handle) {
    check(cudaIpcGetMemHandle(&a.handle, it->first), "cudaIpcGetMemHandle");
    a.have_handle = true;
  }
  Target t;
  static_assert(sizeof(t.handle) == sizeof(cudaIpcMemHandle_t));
  std::memcpy(t.handle, &a.handle, sizeof t.handle);
  t.serial = a.serial;
  t.offset = static_cast<std::uint64_t>(c - it->first);
  t.bytes = bytes;
  t.pointer = reinterpret_cast<std::uintptr_t>(p);
  return t;
}

void* open(int peer, const Target& t) {
  std::lock_guard<std::mutex> lock(g_mutex);
  void*& base = g_opened[{peer, t.serial}];
  if (base == nullptr) {
    cudaIpcMemHandle_t h;
    std::memcpy(&h, t.handle, sizeof h);
    // LazyEnablePeerAccess: when the allocation is on another GPU of this host, let the copy
    // go over NVLink/PCIe peer-to-peer where the GPUs can.
    check(cudaIpcOpenMemHandle(&base, h, cudaIpcMemLazyEnablePeerAccess),
          ("cudaIpcOpenMemHandle (a buffer of rank " + std::to_string(peer) + ")").c_str());
  }
  return static_cast<char*>(base) + t.offset;
}

void close_all() {
  std::lock_guard<std::mutex> lock(g_mutex);
  for (auto& [key, base] : g_opened) cudaIpcCloseMemHandle(base);
  g_opened.clear();
}

}  // namespace ringlab::ipc
