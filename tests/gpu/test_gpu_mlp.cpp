// The MLP on a GPU (DeviceMlp, mlp_device.hpp) against the CPU's (Mlp, mlp.hpp): from the same
// parameters and the same batch, the mean loss and every gradient must agree within float
// rounding, and the SGD-with-momentum step (ringlab::sgd_momentum) must be the host's bit for
// bit. No GPU: exit 77 (skipped). A plain C++ program, as the lessons reach the GPU.
//
// Tolerances, and why: cuBLAS and OpenBLAS add the GEMMs' products in different orders, so the
// gradients differ by a few float roundings of sums of up to 784 terms: relative to the largest
// element, ~1e-6. kGradTolerance = 1e-4 leaves room for that and still catches a transposed
// operand, a missing bias or a wrong ReLU mask (errors of order 1). The loss is computed in
// double from the logits on both sides: kLossTolerance = 1e-5 relative.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

#include "host_copies.hpp"
#include "ringlab/comm/device.hpp"
#include "ringlab/ml/mlp.hpp"
#include "ringlab/ml/mlp_device.hpp"

using namespace ringlab;

namespace {

constexpr double kGradTolerance = 1e-4, kLossTolerance = 1e-5;

// Largest |got - want| relative to the largest |want|; prints the first 3 elements beyond `tol`.
double compare(const char* what, const std::vector<float>& want, const std::vector<float>& got, double tol) {
  double max_diff = 0, max_abs = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    max_diff = std::max(max_diff, std::fabs(double(got[i]) - want[i]));
    max_abs = std::max(max_abs, std::fabs(double(want[i])));
  }
  const double rel = max_abs > 0 ? max_diff / max_abs : max_diff;
  if (rel > tol) {
    int shown = 0;
    for (std::size_t i = 0; i < want.size() && shown < 3; ++i)
      if (std::fabs(double(got[i]) - want[i]) > tol * max_abs) {
        std::printf("  %s[%zu]: cpu %.9g  gpu %.9g\n", what, i, want[i], got[i]);
        ++shown;
      }
  }
  return rel;
}

// One batch of `batch` examples: loss, gradient, accuracy; CPU vs GPU. Returns the failures.
int check_batch(int batch, std::uint64_t seed) {
  const std::vector<int> sizes = {784, 256, 128, 10};
  Mlp cpu(sizes);
  DeviceMlp gpu(sizes);
  if (gpu.parameter_count() != cpu.parameter_count()) {
    std::printf("FAILED: %zu parameters on the GPU, %zu on the CPU\n", gpu.parameter_count(),
                cpu.parameter_count());
    return 1;
  }
  // He-normal weights, and non-zero biases so that their gradients and their addition show.
  std::vector<float> params = cpu.initial_parameters(seed);
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f), small(-0.1f, 0.1f);
  for (const auto& t : cpu.tensors())
    if (!t.is_weight)
      for (std::size_t i = 0; i < t.count; ++i) params[t.offset + i] = small(gen);
  std::vector<float> x(static_cast<std::size_t>(batch) * sizes[0]);
  std::vector<std::uint8_t> y(static_cast<std::size_t>(batch));
  for (float& v : x) v = unit(gen);
  for (auto& v : y) v = static_cast<std::uint8_t>(gen() % 10);

  std::vector<float> cpu_grad(cpu.parameter_count());
  const float cpu_loss = cpu.loss_and_gradient(params.data(), x.data(), y.data(), batch, cpu_grad.data());
  const int cpu_correct = cpu.count_correct(params.data(), x.data(), y.data(), batch);

  // On the GPU: the examples uploaded, then visited in a shuffled order, as in training; the CPU
  // gets the same rows in that order.
  std::vector<int> order(static_cast<std::size_t>(batch));
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), gen);
  std::vector<float> x_shuffled(x.size());
  std::vector<std::uint8_t> y_shuffled(y.size());
  for (int i = 0; i < batch; ++i) {
    std::copy_n(&x[static_cast<std::size_t>(order[i]) * sizes[0]], sizes[0],
                &x_shuffled[static_cast<std::size_t>(i) * sizes[0]]);
    y_shuffled[i] = y[static_cast<std::size_t>(order[i])];
  }
  std::vector<float> cpu_grad_shuffled(cpu.parameter_count());
  const float cpu_loss_shuffled = cpu.loss_and_gradient(params.data(), x_shuffled.data(), y_shuffled.data(),
                                                        batch, cpu_grad_shuffled.data());

  Buffer<float> d_params = upload(params), d_grad(cpu.parameter_count(), Where::device);
  const int set = gpu.upload_examples(x.data(), y.data(), batch);
  gpu.set_order(set, order);
  gpu.loss_and_gradient(d_params.view().data(), set, 0, batch, d_grad.view().data());
  const double gpu_loss = gpu.take_loss_sum();
  const std::vector<float> gpu_grad = download(d_grad);
  const int gpu_correct = gpu.count_correct(d_params.view().data(), set, 0, batch);
  const double again = gpu.take_loss_sum();  // count_correct adds no loss; the sum was reset

  int failures = 0;
  const double loss_err =
      std::fabs(gpu_loss - cpu_loss_shuffled) / std::max(1.0, std::fabs(double(cpu_loss)));
  const double grad_err = compare("grad", cpu_grad_shuffled, gpu_grad, kGradTolerance);
  const double grad_err_unshuffled = compare("grad (order)", cpu_grad, gpu_grad, kGradTolerance);
  std::printf(
      "batch %4d: loss cpu %.7f gpu %.7f (rel. diff %.1e, tol %.0e); gradient max rel. diff %.1e "
      "(tol %.0e; vs the unshuffled batch %.1e); correct cpu %d gpu %d\n",
      batch, cpu_loss_shuffled, gpu_loss, loss_err, kLossTolerance, grad_err, kGradTolerance,
      grad_err_unshuffled, cpu_correct, gpu_correct);
  if (!(loss_err <= kLossTolerance)) failures += std::printf("FAILED: the losses differ\n") > 0;
  if (!(grad_err <= kGradTolerance)) failures += std::printf("FAILED: the gradients differ\n") > 0;
  if (again != 0) failures += std::printf("FAILED: take_loss_sum did not reset (%g)\n", again) > 0;
  // Arg max can flip only on a near tie between two logits: allow one.
  if (std::abs(gpu_correct - cpu_correct) > 1)
    failures += std::printf("FAILED: %d correct on the GPU, %d on the CPU\n", gpu_correct, cpu_correct) > 0;

  // Two steps' losses summed on the GPU: the sum of the two means.
  if (batch < 2) return failures;
  gpu.loss_and_gradient(d_params.view().data(), set, 0, batch / 2, d_grad.view().data());
  gpu.loss_and_gradient(d_params.view().data(), set, batch / 2, batch - batch / 2, d_grad.view().data());
  const double two = gpu.take_loss_sum();
  std::vector<float> scratch(cpu.parameter_count());
  const double want_two =
      double(cpu.loss_and_gradient(params.data(), x_shuffled.data(), y_shuffled.data(), batch / 2,
                                   scratch.data())) +
      cpu.loss_and_gradient(params.data(), x_shuffled.data() + static_cast<std::size_t>(batch / 2) * sizes[0],
                            y_shuffled.data() + batch / 2, batch - batch / 2, scratch.data());
  if (!(std::fabs(two - want_two) <= kLossTolerance * std::max(1.0, want_two)))
    failures += std::printf("FAILED: two steps' loss sum: cpu %.7f gpu %.7f\n", want_two, two) > 0;
  return failures;
}

// ringlab::sgd_momentum on device Views vs host Views: equal bit for bit, over several steps.
int check_sgd() {
  const std::size_t n = 1000003;
  std::vector<float> params(n), grad(n), velocity(n);
  std::mt19937_64 gen(42);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  for (std::size_t i = 0; i < n; ++i)
    params[i] = normal(gen), grad[i] = 1e-3f * normal(gen), velocity[i] = 0.1f * normal(gen);
  Buffer<float> dp = upload(params), dg = upload(grad), dv = upload(velocity);
  const float lr = 0.03f, momentum = 0.9f;
  for (int step = 0; step < 3; ++step) {
    sgd_momentum(View<float>(params), View<const float>(grad), View<float>(velocity), lr, momentum);
    sgd_momentum(dp.view(), View<const float>(dg.view()), dv.view(), lr, momentum);
  }
  const auto gp = download(dp), gv = download(dv);
  int failures = 0;
  for (const auto& [name, want, got] :
       {std::tuple{"params", &params, &gp}, std::tuple{"velocity", &velocity, &gv}}) {
    std::size_t differ = 0, first = n;
    for (std::size_t i = 0; i < n; ++i)
      if (std::memcmp(&(*want)[i], &(*got)[i], sizeof(float)) != 0) first = std::min(first, i), ++differ;
    std::printf("sgd_momentum, %zu elements, 3 steps: %s %zu differ from the host\n", n, name, differ);
    if (differ) {
      std::printf("FAILED: %s[%zu]: host %.9g  device %.9g\n", name, first, (*want)[first], (*got)[first]);
      ++failures;
    }
  }
  return failures;
}

}  // namespace

int main() {
  if (cuda_device_count() == 0) {
    std::printf("no GPU visible: skipped\n");
    return 77;
  }
  use_gpu(0);
  const GpuInfo info = gpu_info(0);
  std::printf("GPU %s\n", info.name.c_str());
  int failures = 0;
  for (int batch : {1, 37, 128, 1024})
    failures += check_batch(batch, 1000 + static_cast<std::uint64_t>(batch));
  failures += check_sgd();
  if (failures) std::printf("FAILED: %d checks\n", failures);
  else std::printf("PASSED: the GPU MLP agrees with the CPU's, and its SGD step is the host's bit for bit\n");
  return failures ? 1 : 0;
}
