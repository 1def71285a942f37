// Built without NCCL's header (no CUDA, or a toolkit without NCCL): --transport nccl is refused
// in one line, and `auto` never picks it.
#include <stdexcept>

#include "cuda_side.hpp"

namespace ringlab::nccl {
namespace {
[[noreturn]] void refuse() {
  throw std::runtime_error("--transport nccl: this ringlab was built without NCCL");
}
}  // namespace
bool load(std::string* error) {
  *error = "--transport nccl: this ringlab was built without NCCL (nccl.h not found at build time)";
  return false;
}
void* init(void*, int, int, std::string*) { refuse(); }
void destroy(void*) {}
void abort(void*) {}
void start_group(void*, const transport::Op*, std::size_t) { refuse(); }
void start_allreduce_sum(void*, DType, const void*, void*, std::size_t) { refuse(); }
void start_broadcast(void*, DType, void*, std::size_t, int) { refuse(); }
bool idle(void*) { refuse(); }
}  // namespace ringlab::nccl
