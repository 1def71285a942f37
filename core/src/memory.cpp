#include "ringlab/memory.hpp"

#include <new>

namespace ringlab::detail {

void* allocate(Where where, std::size_t bytes) {
  if (bytes == 0) return nullptr;
  if (where == Where::device) return device_ops::allocate(bytes);
  return ::operator new(bytes, std::align_val_t(64));
}

void release(Where where, void* p) {
  if (p == nullptr) return;
  if (where == Where::device) device_ops::release(p);
  else ::operator delete(p, std::align_val_t(64));
}

}  // namespace ringlab::detail
