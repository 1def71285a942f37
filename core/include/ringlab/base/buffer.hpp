// A View is a non-owning window on a typed buffer that knows where it lives (host memory
// today, device memory when the CUDA/NCCL backend moves it) and, optionally, which chunk of a
// collective it is. The communicator reads both: `where` picks the transport, `chunk` goes
// into the trace so the visualizer can label the box it draws.
#pragma once
#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace ringlab {

enum class Where { host, device };

template <class T> class View {
 public:
  View() = default;
  View(T* data, std::size_t count, Where where = Where::host, int chunk = -1)
      : data_(data), count_(count), where_(where), chunk_(chunk) {}
  template <class U> View(std::vector<U>& v)
      : data_(v.data()), count_(v.size()) {}  // NOLINT: host vectors convert
  template <class U> View(const std::vector<U>& v) : data_(v.data()), count_(v.size()) {}  // NOLINT
  template <class U> View(const View<U>& other)  // View<T> -> View<const T>
      : data_(other.data()), count_(other.size()), where_(other.where()), chunk_(other.chunk()) {}

  T* data() const { return data_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }
  Where where() const { return where_; }
  int chunk() const { return chunk_; }
  // An index past the end is an error in every build, as a slice's is (sub, below): a loop that
  // runs one step too far (i <= size) would write memory another buffer owns and often pass.
  T& operator[](std::size_t i) const {
    if (i >= count_) index_past_end(i, count_);
    return data_[i];
  }
  T* begin() const { return data_; }
  T* end() const { return data_ + count_; }

  // The elements [offset, offset + count) of this view, labelled as chunk `chunk`. A slice that
  // reaches past the end is an error in every build, not only with assertions on: read or written,
  // it would touch memory another buffer owns and fail far from here, if at all. The message gives
  // the numbers, so that a check can say what they are (ringlab/check/named_sizes.hpp).
  View sub(std::size_t offset, std::size_t count, int chunk = -1) const {
    if (offset > count_ || count > count_ - offset)
      throw std::out_of_range("a slice [" + std::to_string(offset) + ", " + std::to_string(offset + count) +
                              ") of a view of " + std::to_string(count_) + " elements reaches past its end");
    return View(data_ + offset, count, where_, chunk);
  }

 private:
  [[noreturn, gnu::cold, gnu::noinline]] static void index_past_end(std::size_t i, std::size_t count) {
    throw std::out_of_range("index " + std::to_string(i) + " of a view of " + std::to_string(count) +
                            " elements is past its end (the last index is " +
                            (count ? std::to_string(count - 1) : std::string("none: it is empty")) + ")");
  }
  T* data_ = nullptr;
  std::size_t count_ = 0;
  Where where_ = Where::host;
  int chunk_ = -1;
};

template <class U> View(std::vector<U>&) -> View<U>;
template <class U> View(const std::vector<U>&) -> View<const U>;

}  // namespace ringlab
