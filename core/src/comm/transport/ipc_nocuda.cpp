// Built without CUDA: no device memory exists, so nothing is registered and nothing can be
// shared (Runtime::select_device never picks a GPU transport in such a build).
#include <stdexcept>

#include "cuda_side.hpp"

namespace ringlab::ipc {
namespace {
[[noreturn]] void refuse() { throw std::runtime_error("ipc transport: this ringlab was built without CUDA"); }
}  // namespace
void remember(void*, std::size_t) {}
bool retire(void*) { return false; }
void* reuse(std::size_t) { return nullptr; }
void free_retired() {}
Target target_of(void*, std::size_t) { refuse(); }
void* open(int, const Target&) { refuse(); }
void close_all() {}
}  // namespace ringlab::ipc
