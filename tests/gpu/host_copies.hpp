// A device Buffer from a host vector and back: how the GPU tests compare with the host.
#pragma once
#include <vector>

#include "ringlab/comm/memory.hpp"
#include "ringlab/comm/ops.hpp"

template <class T> std::vector<T> download(const ringlab::Buffer<T>& b) {
  std::vector<T> h(b.size());
  ringlab::copy(ringlab::View<T>(h), ringlab::View<const T>(b.view()));
  return h;
}

template <class T> ringlab::Buffer<T> upload(const std::vector<T>& h) {
  ringlab::Buffer<T> b(h.size(), ringlab::Where::device);
  ringlab::copy(b.view(), ringlab::View<const T>(h));
  return b;
}
