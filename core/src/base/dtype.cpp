#include "ringlab/base/dtype.hpp"

namespace ringlab {

const char* dtype_name(DType t) {
  switch (t) {
    case DType::f32:
      return "float";
    case DType::f64:
      return "double";
    case DType::i32:
      return "int32";
    case DType::i64:
      return "int64";
  }
  return "?";
}

std::optional<DType> parse_dtype(const std::string& name) {
  for (DType t : {DType::f32, DType::f64, DType::i32, DType::i64})
    if (name == dtype_name(t)) return t;
  return std::nullopt;
}

std::size_t dtype_size(DType t) {
  return dispatch(t, [](auto zero) { return sizeof(zero); });
}

bool dtype_is_float(DType t) { return t == DType::f32 || t == DType::f64; }

}  // namespace ringlab
