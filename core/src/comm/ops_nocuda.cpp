// Built when the kit has no CUDA: the device side of ops.hpp refuses, in one line that says
// what to do, instead of a host loop crashing on a GPU pointer.
#include <cstring>
#include <stdexcept>
#include <string>

#include "gpu_ops.hpp"

namespace ringlab {
namespace {
[[noreturn]] void refuse(const char* op) {
  throw std::runtime_error(std::string(op) +
                           ": a device buffer, but this ringlab was built without CUDA "
                           "(rebuild where nvcc is installed, or run with --device cpu)");
}
}  // namespace

namespace gpu_ops {
void reduce_sum(DType, void*, const void*, const void*, std::size_t) { refuse("reduce_sum"); }
void copy(void*, const void*, std::size_t) { refuse("copy"); }
void scale(DType, void*, const void*, std::size_t) { refuse("scale"); }
void fill(DType, void*, const void*, std::size_t) { refuse("fill"); }
void sgd_momentum(float*, const float*, float*, std::size_t, float, float) { refuse("sgd_momentum"); }
void synchronize() {}
void* allocate(std::size_t) { refuse("allocate"); }
void release(void*) {}
void* allocate_pinned(std::size_t) { refuse("allocate_pinned"); }
void release_pinned(void*) {}
void* gpu_mark() { return nullptr; }
double gpu_mark_us(void*) { return 0; }
}  // namespace gpu_ops

namespace gpu_ops {
void read_to_host(void* dst, const void* src, std::size_t bytes) { std::memcpy(dst, src, bytes); }
}  // namespace gpu_ops
}  // namespace ringlab
