// The element-wise operations the kit's collectives use, for host or device buffers:
//   reduce_sum(dst, src)      dst += src
//   reduce_sum(dst, a, b)     dst = a + b        (dst may be a itself)
//   copy(dst, src)            dst = src          (host or device, either side)
//   scale(x, factor)          x *= factor
//   fill(x, value)            x = value
//   sgd_momentum(p, g, v, lr, momentum)   v = momentum * v + g;  p -= lr * v   (the optimizer step)
// Each follows the data: host Views run the loops below, device Views (View::where() ==
// Where::device) go to the CUDA kernels of ops_cuda.cu. An algorithm calls these and never
// names host or device itself, so the same ring runs on both (baidu-allreduce's shape).
// Without CUDA built in, a device View is refused with one line (ops_nocuda.cpp).
//
// reduce_sum and copy are traced (a reduce or copy event for dst's chunk), so the visualizer
// sees every addition the collectives make.
#pragma once
#include <algorithm>
#include <cstddef>
#include <functional>
#include <stdexcept>

#include "ringlab/base/buffer.hpp"
#include "ringlab/base/dtype.hpp"
#include "ringlab/trace/trace.hpp"

namespace ringlab {

// The device side, one entry per operation, typed at run time (the .cu file instantiates the
// kernels for the four dtypes). Lesson code does not call these: it calls the templates below.
namespace device_ops {
void reduce_sum(DType t, void* dst, const void* a, const void* b, std::size_t n);  // dst = a + b
void copy(void* dst, const void* src, std::size_t bytes);         // any of host/device to host/device
void scale(DType t, void* x, const void* factor, std::size_t n);  // factor: one T in host memory
void fill(DType t, void* x, const void* value, std::size_t n);    // value: one T in host memory
void sgd_momentum(float* params, const float* grad, float* velocity, std::size_t n, float lr, float momentum);
void synchronize();  // wait for this rank's GPU work
void* allocate(std::size_t bytes);
void release(void* p);
void* allocate_pinned(std::size_t bytes);  // page-locked host memory (cudaMallocHost): fast copies
void release_pinned(void* p);
// GPU time for the trace, taken only when tracing is on: gpu_mark() records a cudaEvent on the
// stream now; gpu_mark_us(mark) waits for it and returns when the GPU reached it, in
// microseconds on the trace clock (aligned with the host's at the first mark), and frees it.
void* gpu_mark();
double gpu_mark_us(void* mark);
}  // namespace device_ops

namespace detail {
// Records that `dst` (a chunk of this rank's buffer) was just written by a reduce or a copy
// that started at t0 (on the GPU: at gpu_start, a device_ops::gpu_mark()), or by a receive from
// `peer`. Call only when tracing is on.
template <class T>
void record_local(trace::Op op, View<T> dst, double t0, void* gpu_start = nullptr, int peer = -1) {
  trace::Event e = trace::event_here(op);  // in the collective, phase and step in progress
  e.peer = peer;
  e.chunk = dst.chunk();
  e.bytes = dst.bytes();
  e.t0 = t0;
  if (gpu_start) {
    void* gpu_end = device_ops::gpu_mark();
    e.gpu_t0 = device_ops::gpu_mark_us(gpu_start);
    e.gpu_t1 = device_ops::gpu_mark_us(gpu_end);
  }
  e.t1 = trace::now_us();
  e.values = trace::small_values(dst.data(), dst.size());
  if (dst.where() == Where::device) e.where = "device";
  trace::record(std::move(e));
}

inline void require_same_size(const char* op, std::size_t a, std::size_t b) {
  if (a != b)
    throw std::invalid_argument(std::string(op) + ": views of " + std::to_string(a) + " and " +
                                std::to_string(b) + " elements");
}
// Adding needs every operand in one memory: a host loop cannot read a GPU buffer.
inline bool all_device(const char* op, Where a, Where b, Where c) {
  const int on_device = (a == Where::device) + (b == Where::device) + (c == Where::device);
  if (on_device != 0 && on_device != 3)
    throw std::invalid_argument(std::string(op) +
                                ": operands in host and device memory at once — a host buffer (a std::vector) "
                                "beside device data; make it where the data is: comm.scratch_like(view), or a "
                                "Buffer in comm.where()");
  return on_device == 3;
}
}  // namespace detail

// dst = a + b, element-wise (dst may be a itself), traced as a reduction of dst's chunk.
template <class T> void reduce_sum(View<T> dst, View<const T> a, View<const T> b) {
  detail::require_same_size("reduce_sum", dst.size(), a.size());
  detail::require_same_size("reduce_sum", dst.size(), b.size());
  const double t0 = trace::enabled() ? trace::now_us() : 0;
  void* gpu_t0 = nullptr;
  if (detail::all_device("reduce_sum", dst.where(), a.where(), b.where())) {
    if (trace::enabled()) gpu_t0 = device_ops::gpu_mark();
    device_ops::reduce_sum(dtype_of<T>(), dst.data(), a.data(), b.data(), dst.size());
  } else {
    std::transform(a.begin(), a.end(), b.begin(), dst.begin(), std::plus<>());
  }
  if (trace::enabled()) detail::record_local(trace::Op::reduce, dst, t0, gpu_t0);
}

// dst += src, element-wise.
template <class T> void reduce_sum(View<T> dst, View<const T> src) {
  reduce_sum(dst, View<const T>(dst), src);
}
template <class T> void reduce_sum(View<T> dst, View<T> src) { reduce_sum(dst, View<const T>(src)); }

// dst = src, traced as a copy. Either side may be host or device memory (an upload, a
// download, or a copy on one GPU).
template <class T> void copy(View<T> dst, View<const T> src) {
  detail::require_same_size("copy", dst.size(), src.size());
  const double t0 = trace::enabled() ? trace::now_us() : 0;
  void* gpu_t0 = nullptr;
  if (dst.where() == Where::device || src.where() == Where::device) {
    if (trace::enabled()) gpu_t0 = device_ops::gpu_mark();
    device_ops::copy(dst.data(), src.data(), dst.bytes());
  } else {
    std::copy(src.begin(), src.end(), dst.begin());
  }
  if (trace::enabled()) detail::record_local(trace::Op::copy, dst, t0, gpu_t0);
}
template <class T> void copy(View<T> dst, View<T> src) { copy(dst, View<const T>(src)); }

// x *= factor, element-wise (averaging gradients: factor = 1/n).
template <class T> void scale(View<T> x, T factor) {
  if (x.where() == Where::device) device_ops::scale(dtype_of<T>(), x.data(), &factor, x.size());
  else
    for (T& v : x) v *= factor;
}

// x = value, every element.
template <class T> void fill(View<T> x, T value) {
  if (x.where() == Where::device) device_ops::fill(dtype_of<T>(), x.data(), &value, x.size());
  else std::fill(x.begin(), x.end(), value);
}

// SGD with momentum, PyTorch's form, element-wise on float Views in one memory:
//   velocity = momentum * velocity + grad;   params -= lr * velocity
// The device kernel rounds each multiply and add on its own (no fused multiply-add), so a GPU
// step is the host's bit for bit, given the same gradient.
inline void sgd_momentum(View<float> params, View<const float> grad, View<float> velocity, float lr,
                         float momentum) {
  detail::require_same_size("sgd_momentum", params.size(), grad.size());
  detail::require_same_size("sgd_momentum", params.size(), velocity.size());
  if (detail::all_device("sgd_momentum", params.where(), grad.where(), velocity.where())) {
    device_ops::sgd_momentum(params.data(), grad.data(), velocity.data(), params.size(), lr, momentum);
  } else {
    for (std::size_t i = 0; i < params.size(); ++i) {
      velocity[i] = momentum * velocity[i] + grad[i];
      params[i] -= lr * velocity[i];
    }
  }
}

}  // namespace ringlab
