#include "ringlab/comm/memory.hpp"

#include <sys/mman.h>

#include <cstdlib>
#include <new>

namespace ringlab::detail {

// Large host buffers sit on 2 MiB pages (transparent huge pages), because of how MPI moves
// them between processes on one host: Open MPI's shared-memory transport copies a large message
// once, the receiver reading straight from the sender's memory (CMA, process_vm_readv), and
// the kernel first looks up and pins every page of the sender's buffer. With 4 KiB pages that
// bookkeeping is a good part of the copy's cost; with 2 MiB pages there is 512 times less of it
// (lesson 08 measures the difference: docs/lesson08.md). madvise is only advice: where the
// kernel has no huge page to give, the buffer is an ordinary one.
constexpr std::size_t kHugePage = std::size_t{2} << 20;

void* allocate(Where where, std::size_t bytes) {
  if (bytes == 0) return nullptr;
  if (where == Where::device) return device_ops::allocate(bytes);
  const std::size_t align = bytes >= kHugePage ? kHugePage : 64;
  const std::size_t rounded = (bytes + align - 1) / align * align;  // aligned_alloc wants a multiple
  void* p = std::aligned_alloc(align, rounded);
  if (!p) throw std::bad_alloc();
  if (align == kHugePage) madvise(p, rounded, MADV_HUGEPAGE);
  return p;
}

void release(Where where, void* p) {
  if (p == nullptr) return;
  if (where == Where::device) device_ops::release(p);
  else std::free(p);
}

}  // namespace ringlab::detail
