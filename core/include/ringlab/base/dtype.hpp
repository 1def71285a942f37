// The element types the kit's collectives move: float, double, int32, int64.
// One enum, its names on the command line, and a dispatcher that turns a
// run-time DType into a compile-time T so lessons can write their algorithms as templates.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace ringlab {

enum class DType { f32, f64, i32, i64 };

template <class T> constexpr DType dtype_of() {
  using U = std::remove_const_t<T>;
  if constexpr (std::is_same_v<U, float>) return DType::f32;
  else if constexpr (std::is_same_v<U, double>) return DType::f64;
  else if constexpr (std::is_same_v<U, std::int32_t>) return DType::i32;
  else if constexpr (std::is_same_v<U, std::int64_t>) return DType::i64;
  else static_assert(sizeof(U) == 0, "ringlab moves float, double, int32 and int64 only");
}

const char* dtype_name(DType t);  // "float", "double", "int32", "int64"
std::size_t dtype_size(DType t);
bool dtype_is_float(DType t);

// Calls f(T{}) with T the C++ type of `t`, e.g. dispatch(t, [&](auto zero) { using T = decltype(zero); ...
// }).
template <class F> decltype(auto) dispatch(DType t, F&& f) {
  switch (t) {
    case DType::f32:
      return f(float{});
    case DType::f64:
      return f(double{});
    case DType::i32:
      return f(std::int32_t{});
    case DType::i64:
      return f(std::int64_t{});
  }
  return f(float{});
}

}  // namespace ringlab
