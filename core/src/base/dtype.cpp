#include "ringlab/base/dtype.hpp"

namespace ringlab {

const char* dtype_name(DType t) {
  static const char* const kNames[] = {"float", "double", "int32", "int64"};  // in DType's order
  return kNames[static_cast<int>(t)];
}

std::size_t dtype_size(DType t) {
  return dispatch(t, [](auto zero) { return sizeof(zero); });
}

bool dtype_is_float(DType t) { return t == DType::f32 || t == DType::f64; }

}  // namespace ringlab
