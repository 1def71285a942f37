#include "ringlab/check.hpp"

#include <sstream>

namespace ringlab {

double float_tolerance(DType t, int terms) {
  const int n = terms < 1 ? 1 : terms;
  switch (t) {
    case DType::f32:
      return 1e-6 * n;
    case DType::f64:
      return 1e-14 * n;
    default:
      return 0;
  }
}

std::string describe(const CheckResult& r) {
  if (r.wrong == 0) return {};
  std::ostringstream s;
  s << r.wrong << " wrong; first:";
  for (const auto& m : r.first)
    s << " [" << m.index << "] expected " << m.expected << " got " << m.actual << ";";
  return s.str();
}

}  // namespace ringlab
