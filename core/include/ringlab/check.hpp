// Comparing a result against a reference, the way llm.c's validate_result does: count the
// wrong elements and keep the first few with both values, so a failure says where to look.
#pragma once
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "ringlab/buffer.hpp"
#include "ringlab/dtype.hpp"

namespace ringlab {

struct Mismatch {
  std::size_t index;
  double expected, actual;
};

struct CheckResult {
  long long wrong = 0;
  std::vector<Mismatch> first;  // up to 5
};

// Integers must match exactly. Floats may differ by the rounding of a sum over `terms` values
// taken in another order: |actual - expected| <= tol * terms * max(1, |expected|), with
// tol = 1e-6 for float and 1e-14 for double. terms = 0: every type must match exactly (a
// broadcast copies; a device sum taken in the host's order is the host's sum bit for bit).
double float_tolerance(DType t, int terms);

template <class T> CheckResult compare(View<const T> expected, View<const T> actual, int terms) {
  CheckResult r;
  const double tol = terms == 0 ? 0.0 : float_tolerance(dtype_of<T>(), terms);
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const double e = static_cast<double>(expected[i]), a = static_cast<double>(actual[i]);
    const bool bad =
        tol == 0 ? expected[i] != actual[i] : !(std::fabs(a - e) <= tol * std::fmax(1.0, std::fabs(e)));
    if (bad) {
      if (r.first.size() < 5) r.first.push_back({i, e, a});
      ++r.wrong;
    }
  }
  return r;
}

// "3 wrong; first: [17] expected 6 got 4, ..." (empty when nothing is wrong).
std::string describe(const CheckResult& r);

}  // namespace ringlab
