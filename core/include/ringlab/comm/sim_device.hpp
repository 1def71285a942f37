// --device sim: a GPU simulated in host memory, for a laptop or a CI machine without one.
//
// On a GPU, device memory is not host memory: a host loop over a device buffer (`for (float& g :
// grad) g /= n;`) crashes there, while on the CPU, where the "device" is the host, it runs and is
// right. So a mistake of that kind passes every CPU check. The simulated device tells them apart
// the way a GPU does. Each of its allocations is mapped twice:
//   - the address a Buffer hands out, which Views hold and host code sees, with no access at all
//     (like a GPU address in a CPU process): reading or writing it faults;
//   - a second mapping of the same pages, the "device side", which only the simulated device
//     uses: the kit's ops on device Views (ops.hpp's device_ops: add, scale, fill, the optimizer
//     step, copies) run there, as kernels and cudaMemcpy run on a GPU.
// A fault on a simulated allocation stops the rank with one line that says what happened and
// where (byte k of an allocation of N), and what to use instead: the ops, which run where the
// data is. Buffers move between ranks as the staged transport moves GPU buffers: copied to host
// memory, through MPI (or strict), copied back.
//
// Which lessons: the ones whose device data is buffers and the replica's model (01, 03, 05, 06,
// 07). The model of a device replica runs its host MLP on the device side (ml/model_on_device.hpp).
#pragma once
#include <cstddef>

#include "ringlab/base/dtype.hpp"

namespace ringlab::sim_device {

// From now on this process's device is the simulated one: device_ops run here, and a fault on
// its memory is reported (rank and size: the report's "[rank r/n]"). Runtime::select_device.
void start(int rank, int size);
bool on();

// Device memory: `bytes` mapped twice (above). release takes the address allocate returned.
void* allocate(std::size_t bytes);
void release(void* p);

// The device side of `p`, an address in simulated device memory; any other address unchanged
// (host memory is its own device side, as cudaMemcpyDefault takes either).
void* device_side(void* p);
const void* device_side(const void* p);

// The simulated kernels: device_ops' signatures (ops.hpp), on the device side.
void reduce_sum(DType t, void* dst, const void* a, const void* b, std::size_t n);
void copy(void* dst, const void* src, std::size_t bytes);
void scale(DType t, void* x, const void* factor, std::size_t n);
void fill(DType t, void* x, const void* value, std::size_t n);
void sgd_momentum(float* params, const float* grad, float* velocity, std::size_t n, float lr, float momentum);

}  // namespace ringlab::sim_device
