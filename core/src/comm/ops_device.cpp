// device_ops (ops.hpp), the device side of every op: the real GPU's (gpu_ops.hpp), or the
// simulated device's once a run asked for --device sim (sim_device.hpp). One switch here, so
// that nothing above it (ops, transports, lessons) asks which device it has.
#include <cstdlib>
#include <cstring>
#include <new>

#include "gpu_ops.hpp"
#include "ringlab/comm/sim_device.hpp"

namespace ringlab {
namespace device_ops {
namespace sim = sim_device;
void reduce_sum(DType t, void* dst, const void* a, const void* b, std::size_t n) {
  sim::on() ? sim::reduce_sum(t, dst, a, b, n) : gpu_ops::reduce_sum(t, dst, a, b, n);
}
void copy(void* dst, const void* src, std::size_t bytes) {
  sim::on() ? sim::copy(dst, src, bytes) : gpu_ops::copy(dst, src, bytes);
}
void scale(DType t, void* x, const void* factor, std::size_t n) {
  sim::on() ? sim::scale(t, x, factor, n) : gpu_ops::scale(t, x, factor, n);
}
void fill(DType t, void* x, const void* value, std::size_t n) {
  sim::on() ? sim::fill(t, x, value, n) : gpu_ops::fill(t, x, value, n);
}
void sgd_momentum(float* params, const float* grad, float* velocity, std::size_t n, float lr, float momentum) {
  sim::on() ? sim::sgd_momentum(params, grad, velocity, n, lr, momentum)
            : gpu_ops::sgd_momentum(params, grad, velocity, n, lr, momentum);
}
void synchronize() {
  if (!sim::on()) gpu_ops::synchronize();  // (the simulated kernels are done when they return)
}
void* allocate(std::size_t bytes) { return sim::on() ? sim::allocate(bytes) : gpu_ops::allocate(bytes); }
void release(void* p) { sim::on() ? sim::release(p) : gpu_ops::release(p); }
// Pinned host memory, for the staged transport: on the simulated device, plain host memory.
void* allocate_pinned(std::size_t bytes) {
  if (!sim::on()) return gpu_ops::allocate_pinned(bytes);
  void* p = std::malloc(bytes == 0 ? 1 : bytes);
  if (!p) throw std::bad_alloc();
  return p;
}
void release_pinned(void* p) { sim::on() ? std::free(p) : gpu_ops::release_pinned(p); }
// The trace's GPU clock: the simulated device does its work on the host, timed by the host.
void* gpu_mark() { return sim::on() ? nullptr : gpu_ops::gpu_mark(); }
double gpu_mark_us(void* mark) { return gpu_ops::gpu_mark_us(mark); }
}  // namespace device_ops

namespace trace::detail {
void read_to_host(void* dst, const void* src, std::size_t bytes) {
  gpu_ops::read_to_host(dst, sim_device::device_side(src), bytes);
}
}  // namespace trace::detail
}  // namespace ringlab
