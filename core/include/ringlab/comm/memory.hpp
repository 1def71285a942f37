// Buffer<T>: an owning array of T in host or device memory, the buffers a lesson allocates
// for its collectives (View is the non-owning window the algorithms take). Where it lives is
// decided once, by the communicator's device (--device): comm.where().
//   Buffer<float> grads(count, comm.where());
//   ring_allreduce(comm, grads.view(), grads.view());
#pragma once
#include <cstddef>
#include <utility>

#include "ringlab/base/buffer.hpp"
#include "ringlab/comm/ops.hpp"

namespace ringlab {

namespace detail {
// host: 64-byte aligned, and from 2 MiB up on huge pages (memory.cpp says why); device: cudaMalloc
void* allocate(Where where, std::size_t bytes);
void release(Where where, void* p);
}  // namespace detail

template <class T> class Buffer {
 public:
  Buffer() = default;
  Buffer(std::size_t count, Where where)
      : data_(static_cast<T*>(detail::allocate(where, count * sizeof(T)))), count_(count), where_(where) {}
  ~Buffer() { detail::release(where_, data_); }
  Buffer(Buffer&& o) noexcept { swap(o); }
  Buffer& operator=(Buffer&& o) noexcept {
    swap(o);
    return *this;
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  View<T> view() const { return View<T>(data_, count_, where_); }
  std::size_t size() const { return count_; }
  Where where() const { return where_; }

 private:
  void swap(Buffer& o) {
    std::swap(data_, o.data_);
    std::swap(count_, o.count_);
    std::swap(where_, o.where_);
  }
  T* data_ = nullptr;
  std::size_t count_ = 0;
  Where where_ = Where::host;
};

}  // namespace ringlab
