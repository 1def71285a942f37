// The device side of ops.hpp against the host side, every dtype, odd sizes: reduce_sum (in
// place and 3-operand), copy, scale, fill on GPU buffers must give the host's results bit for
// bit (no fused multiply-add, same single operation per element). No GPU: exit 77 (skipped).
// A plain C++ program: the kernels are reached through ops.hpp, as lessons reach them.
//   test_gpu_ops           the checks
//   test_gpu_ops --bench   the reduce kernel's bandwidth next to a device-to-device copy's
//                          (bytes read + written per second; the goal is >= 80% of the copy)
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "host_copies.hpp"
#include "ringlab/comm/device.hpp"

using namespace ringlab;

namespace {

// Returns the number of (size, operation) cases that differ from the host.
template <class T> int check_type(const char* name) {
  int bad = 0;
  for (std::size_t n :
       {std::size_t(1), std::size_t(7), std::size_t(1001), std::size_t(65537), (std::size_t(1) << 22) + 3}) {
    std::vector<T> a(n), b(n);
    for (std::size_t i = 0; i < n; ++i) {  // floats with many bits set, so rounding shows
      a[i] = static_cast<T>((i * 2654435761u) % 100003) / static_cast<T>(7) - static_cast<T>(5000);
      b[i] = static_cast<T>((i * 40503u) % 9973) / static_cast<T>(3) + static_cast<T>(1);
    }
    std::vector<T> sum(n), acc = a, scaled = a, filled(n, static_cast<T>(-3));
    reduce_sum(View<T>(sum), View<const T>(a), View<const T>(b));
    reduce_sum(View<T>(acc), View<const T>(b));
    scale(View<T>(scaled), static_cast<T>(3));

    Buffer<T> da = upload(a), db = upload(b), dsum(n, Where::device), dfill(n, Where::device);
    reduce_sum(dsum.view(), View<const T>(da.view()), View<const T>(db.view()));
    const auto got_sum = download(dsum);
    reduce_sum(da.view(), View<const T>(db.view()));  // in place: da = a + b
    const auto got_acc = download(da);
    Buffer<T> dscaled = upload(a);
    scale(dscaled.view(), static_cast<T>(3));
    fill(dfill.view(), static_cast<T>(-3));
    device_ops::synchronize();
    const struct {
      const char* op;
      bool same;
    } cases[] = {{"reduce_sum 3-operand", got_sum == sum},
                 {"reduce_sum in place", got_acc == acc},
                 {"copy up and down", download(upload(a)) == a},
                 {"scale", download(dscaled) == scaled},
                 {"fill", download(dfill) == filled}};
    for (const auto& c : cases) {
      std::printf("%-7s %9zu %-22s %s\n", name, n, c.op, c.same ? "same as host" : "DIFFERS");
      bad += !c.same;
    }
  }
  return bad;
}

// GB/s moved by f() (bytes read + written per call), fastest of 20 calls after 3 warm-up calls.
template <class F> double bandwidth(std::size_t bytes_moved, F&& f) {
  for (int i = 0; i < 3; ++i) f();
  device_ops::synchronize();
  double best = 1e30;
  for (int i = 0; i < 20; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    device_ops::synchronize();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return static_cast<double>(bytes_moved) / best / 1e9;
}

int bench() {
  const std::size_t n = std::size_t(64) << 20;  // 64 Mi floats: 256 MiB per buffer
  Buffer<float> a(n, Where::device), b(n, Where::device), d(n, Where::device);
  fill(a.view(), 1.0f);
  fill(b.view(), 2.0f);
  const std::size_t bytes = n * sizeof(float);
  const double copy_bw = bandwidth(2 * bytes, [&] { copy(d.view(), View<const float>(a.view())); });
  const double add3_bw = bandwidth(
      3 * bytes, [&] { reduce_sum(d.view(), View<const float>(a.view()), View<const float>(b.view())); });
  const double add2_bw = bandwidth(3 * bytes, [&] { reduce_sum(d.view(), View<const float>(b.view())); });
  const GpuInfo g = gpu_info(0);
  std::printf("GPU %s, 256 MiB float buffers, GB/s = (bytes read + written) / time, fastest of 20\n",
              g.name.c_str());
  std::printf("%-28s %10s %12s\n", "operation", "GB/s", "vs copy");
  std::printf("%-28s %10.1f %12.2f\n", "copy (device to device)", copy_bw, 1.0);
  std::printf("%-28s %10.1f %12.2f\n", "reduce_sum d = a + b", add3_bw, add3_bw / copy_bw);
  std::printf("%-28s %10.1f %12.2f\n", "reduce_sum d += b", add2_bw, add2_bw / copy_bw);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (cuda_device_count() == 0) {
    std::printf("SKIP: no GPU visible\n");
    return 77;
  }
  use_gpu(0);
  if (argc > 1 && std::strcmp(argv[1], "--bench") == 0) return bench();
  int bad = check_type<float>("float") + check_type<double>("double") + check_type<std::int32_t>("int32") +
            check_type<std::int64_t>("int64");
  std::printf(bad ? "FAILED: %d cases differ\n" : "every case matches the host\n", bad);
  return bad ? 1 : 0;
}
