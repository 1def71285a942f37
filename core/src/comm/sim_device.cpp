#include "ringlab/comm/sim_device.hpp"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "signal_line.hpp"

namespace ringlab::sim_device {
namespace {

// The live allocations: where host code sees each one (no access) and its device side. A fixed
// table, so that the fault handler can read it without taking a lock or allocating.
struct Region {
  std::atomic<char*> seen{nullptr};  // nullptr: a free slot
  char* side = nullptr;
  std::size_t bytes = 0;    // what was asked for
  std::size_t mapped = 0;   // whole pages
};
constexpr int kRegions = 4096;
Region g_regions[kRegions];
std::mutex g_mutex;  // allocate and release (the handler only reads)
std::atomic<bool> g_on{false};
char g_prefix[64] = "";  // "[rank r/n] ", written once at start()

const Region* region_of(const void* p) {
  const char* c = static_cast<const char*>(p);
  for (const Region& r : g_regions) {
    const char* seen = r.seen.load(std::memory_order_acquire);
    if (seen != nullptr && c >= seen && c < seen + r.mapped) return &r;
  }
  return nullptr;
}

struct sigaction g_previous {};

void on_fault(int sig, siginfo_t* info, void* context) {
  const Region* r = region_of(info->si_addr);
  if (r == nullptr) {  // not ours: whatever would have happened, happens
    sigaction(SIGSEGV, &g_previous, nullptr);
    if ((g_previous.sa_flags & SA_SIGINFO) != 0 && g_previous.sa_sigaction != nullptr)
      g_previous.sa_sigaction(sig, info, context);
    return;  // (SIG_DFL: the fault repeats and the default action ends the process)
  }
  // Async-signal-safe (signal_line.hpp). (static: the handler's stack may be small)
  static detail::SignalLine line;
  line.used = 0;
  line.put(g_prefix);
  line.put("error: host code touched device memory: byte ");
  line.put(static_cast<std::size_t>(static_cast<const char*>(info->si_addr) - r->seen.load()));
  line.put(" of a device buffer of ");
  line.put(r->bytes);
  line.put(" bytes (--device sim, a simulated GPU). On a GPU, device memory is not host memory: a loop, "
           "an index or a std:: algorithm on a device View, or its data(), crashes there as it stops here. "
           "Use the ringlab ops (ringlab::scale, copy, reduce_sum, fill, sgd_momentum): they run where the "
           "data is.\n");
  line.write_to_stderr();
  _exit(5);
}

template <class T> T* side(T* p) { return static_cast<T*>(device_side(static_cast<void*>(const_cast<std::remove_const_t<T>*>(p)))); }

}  // namespace

void start(int rank, int size) {
  std::snprintf(g_prefix, sizeof g_prefix, "[rank %d/%d] ", rank, size);
  struct sigaction action {};
  action.sa_sigaction = on_fault;
  action.sa_flags = SA_SIGINFO;
  sigemptyset(&action.sa_mask);
  sigaction(SIGSEGV, &action, &g_previous);
  g_on = true;
}

bool on() { return g_on; }

void* allocate(std::size_t bytes) {
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  const std::size_t mapped = (std::max<std::size_t>(bytes, 1) + page - 1) / page * page;
  // One set of pages (an anonymous shared mapping), mapped a second time at another address.
  void* side_map = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (side_map == MAP_FAILED) throw std::bad_alloc();
  void* seen = mremap(side_map, 0, mapped, MREMAP_MAYMOVE);  // old size 0: a second mapping, shared
  if (seen == MAP_FAILED || mprotect(seen, mapped, PROT_NONE) != 0) {
    munmap(side_map, mapped);
    throw std::bad_alloc();
  }
  std::lock_guard lock(g_mutex);
  for (Region& r : g_regions)
    if (r.seen.load() == nullptr) {
      r.side = static_cast<char*>(side_map);
      r.bytes = bytes;
      r.mapped = mapped;
      r.seen.store(static_cast<char*>(seen), std::memory_order_release);
      return seen;
    }
  munmap(seen, mapped);
  munmap(side_map, mapped);
  throw std::runtime_error("--device sim: more than " + std::to_string(kRegions) + " device buffers at once");
}

void release(void* p) {
  std::lock_guard lock(g_mutex);
  for (Region& r : g_regions)
    if (r.seen.load() == p) {
      munmap(r.side, r.mapped);
      munmap(p, r.mapped);
      r.seen.store(nullptr);
      return;
    }
}

void* device_side(void* p) {
  const Region* r = region_of(p);
  return r ? r->side + (static_cast<char*>(p) - r->seen.load()) : p;
}
const void* device_side(const void* p) { return device_side(const_cast<void*>(p)); }

// The kernels: the host loops of ops.hpp, on the device side.
void reduce_sum(DType t, void* dst, const void* a, const void* b, std::size_t n) {
  dispatch(t, [&](auto zero) {
    using T = decltype(zero);
    const T *x = side(static_cast<const T*>(a)), *y = side(static_cast<const T*>(b));
    T* out = side(static_cast<T*>(dst));
    for (std::size_t i = 0; i < n; ++i) out[i] = x[i] + y[i];
  });
}
void copy(void* dst, const void* src, std::size_t bytes) {
  if (bytes > 0) std::memmove(device_side(dst), device_side(src), bytes);
}
void scale(DType t, void* x, const void* factor, std::size_t n) {
  dispatch(t, [&](auto zero) {
    using T = decltype(zero);
    T* v = side(static_cast<T*>(x));
    const T k = *static_cast<const T*>(factor);
    for (std::size_t i = 0; i < n; ++i) v[i] *= k;
  });
}
void fill(DType t, void* x, const void* value, std::size_t n) {
  dispatch(t, [&](auto zero) {
    using T = decltype(zero);
    std::fill_n(side(static_cast<T*>(x)), n, *static_cast<const T*>(value));
  });
}
void sgd_momentum(float* params, const float* grad, float* velocity, std::size_t n, float lr, float momentum) {
  float *p = side(params), *v = side(velocity);
  const float* g = side(grad);
  for (std::size_t i = 0; i < n; ++i) {
    v[i] = momentum * v[i] + g[i];
    p[i] -= lr * v[i];
  }
}

}  // namespace ringlab::sim_device
