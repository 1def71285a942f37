// ops.hpp on host buffers, every dtype: the values each operation must produce. And the
// dispatch layer's promise for device buffers: where the kit cannot run them (built without
// CUDA, or no GPU visible) a device View is refused with one line, never read as host memory.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "catch.hpp"
#if __has_include(<catch2/catch_template_test_macros.hpp>)
#include <catch2/catch_template_test_macros.hpp>
#endif
#include "ringlab/comm/device.hpp"
#include "ringlab/comm/memory.hpp"
#include "ringlab/comm/ops.hpp"

using namespace ringlab;

TEMPLATE_TEST_CASE("host ops compute what they say, every dtype", "", float, double, std::int32_t,
                   std::int64_t) {
  using T = TestType;
  const std::size_t n = 1001;  // odd, not a multiple of anything a loop might unroll by
  std::vector<T> a(n), b(n), d(n);
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = static_cast<T>(i % 97) - T(40);
    b[i] = static_cast<T>(3 * (i % 13)) + T(1);
  }
  reduce_sum(View<T>(d), View<const T>(a), View<const T>(b));
  for (std::size_t i = 0; i < n; ++i) REQUIRE(d[i] == static_cast<T>(a[i] + b[i]));
  std::vector<T> acc = a;
  reduce_sum(View<T>(acc), View<T>(b));
  CHECK(acc == d);
  std::vector<T> c(n);
  copy(View<T>(c), View<const T>(a));
  CHECK(c == a);
  scale(View<T>(c), T(3));
  for (std::size_t i = 0; i < n; ++i) REQUIRE(c[i] == static_cast<T>(a[i] * T(3)));
  fill(View<T>(c), T(-5));
  for (const T& x : c) REQUIRE(x == T(-5));
  // A host Buffer is a View's memory the same way.
  Buffer<T> buf(n, Where::host);
  copy(buf.view(), View<const T>(a));
  CHECK(std::vector<T>(buf.view().begin(), buf.view().end()) == a);
}

TEST_CASE("ops refuse operands of different sizes") {
  std::vector<float> a(3), b(4);
  CHECK_THROWS_AS(reduce_sum(View<float>(a), View<float>(b)), std::invalid_argument);
  CHECK_THROWS_AS(copy(View<float>(a), View<float>(b)), std::invalid_argument);
}

TEST_CASE("a slice past a view's end is refused in every build, with its numbers") {
  std::vector<float> a(10);
  const View<float> v(a);
  CHECK(v.sub(4, 6).size() == 6);  // up to the end is fine
  CHECK(v.sub(10, 0).size() == 0);
  try {
    (void)v.sub(6, 5);
    FAIL("sub(6, 5) of 10 elements was allowed");
  } catch (const std::out_of_range& e) {
    CHECK(std::string(e.what()) == "a slice [6, 11) of a view of 10 elements reaches past its end");
  }
  CHECK_THROWS_AS(v.sub(11, 0), std::out_of_range);
  CHECK_THROWS_AS(v.sub(1, static_cast<std::size_t>(-1)), std::out_of_range);  // no wrap-around
}

TEST_CASE("an index past a view's end is refused in every build, with its numbers") {
  std::vector<float> a(3, 1.0f);
  const View<float> v(a);
  v[2] = 5.0f;  // the last one is fine
  CHECK(a[2] == 5.0f);
  try {
    v[3] = 0.0f;  // a loop with i <= size
    FAIL("index 3 of 3 elements was allowed");
  } catch (const std::out_of_range& e) {
    CHECK(std::string(e.what()) == "index 3 of a view of 3 elements is past its end (the last index is 2)");
  }
  CHECK(a == std::vector<float>{1.0f, 1.0f, 5.0f});  // nothing written past the end, nor before
  CHECK_THROWS_AS(View<float>()[0], std::out_of_range);
}

TEST_CASE("a device View where no GPU can run it is refused with one line") {
  if (cuda_device_count() > 0) {  // a GPU is visible: the device path runs (tests labelled gpu)
    WARN("a GPU is visible: nothing to refuse");
    return;
  }
  std::vector<float> host(8, 1.0f);
  // The pointer is host memory labelled as device: a host loop would read it without complaint,
  // so only the dispatch on where() can refuse it.
  View<float> dev(host.data(), host.size(), Where::device);
  auto message_of = [](auto&& f) -> std::string {
    try {
      f();
    } catch (const std::exception& e) {
      return e.what();
    }
    return "(nothing thrown)";
  };
  std::vector<float> other(8, 2.0f);
  View<const float> dev_src(other.data(), other.size(), Where::device);
  const std::string msg = message_of([&] { reduce_sum(dev, dev_src); });
  INFO(msg);
  CHECK(msg.find('\n') == std::string::npos);
  if (!built_with_cuda()) {
    CHECK(msg.find("built without CUDA") != std::string::npos);
    CHECK(message_of([&] { fill(dev, 2.0f); }).find("built without CUDA") != std::string::npos);
    CHECK(message_of([&] { Buffer<float>(4, Where::device); }).find("built without CUDA") !=
          std::string::npos);
  } else {  // built with CUDA, no GPU: the runtime's own error, in one line
    CHECK(msg.find("reduce_sum kernel") != std::string::npos);
    CHECK(message_of([&] { Buffer<float>(4, Where::device); }).find("cudaMalloc") != std::string::npos);
  }
  // Adding host to device memory is refused before any GPU is asked.
  const std::string mixed =
      message_of([&] { reduce_sum(dev, View<const float>(host), View<const float>(host)); });
  CHECK(mixed.find("host and device memory at once") != std::string::npos);
}
