// Lesson 02 — the device side of pipeline_stage.hpp: the same loops as small CUDA kernels (pipeline_stage_cuda.cu),
// for a stage whose layers live on its rank's GPU (--device cuda). pipeline_stage.hpp calls these when a
// layer's buffers are in device memory; lesson code never calls them itself.
//
// Each kernel gives one thread one output element and adds in the order the host loop adds
// (no fused multiply-add: -fmad=false), so the device stage computes the host's numbers; only
// tanh may differ in the last bit. Built without CUDA, pipeline_stage_nocuda.cpp refuses in one line.
// No CUDA header here: this is included by lesson code, which nvcc never compiles.
#pragma once
#include <cstddef>

namespace ringlab::pipeline::device {

// y[rows x out] = act(x[rows x in] W + b)                       (pipeline_stage.hpp: layer_forward)
void layer_forward(int in, int out, bool tanh_after, const double* w, const double* b, const double* x,
                   double* y, int rows);
// dy becomes dL/d(pre-activation); gw, gb += this microbatch's gradients; dx = dL/dx.
void layer_backward(int in, int out, bool tanh_after, const double* w, double* gw, double* gb,
                    const double* x, const double* y, double* dy, double* dx, int rows);
// p -= lr * g, then g = 0, for `n` parameters.                (pipeline_stage.hpp: sgd_update)
void sgd_update(double* p, double* g, std::size_t n, double lr);
// grad = (out - target) / batch; returns sum 0.5 (out - target)^2 / batch (copied to the host).
double mse_loss(const double* out, const double* target, std::size_t n, int batch, double* grad);
// `bytes` from src to dst, either of them host or device memory (not traced: the lesson's trace
// shows compute and transfers, as on the CPU).
void copy(void* dst, const void* src, std::size_t bytes);
// Waits for this rank's GPU: a stage's busy time is the GPU's, not the kernel launches'.
void synchronize();

}  // namespace ringlab::pipeline::device
