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
// tol = 1e-6 for float and 1e-14 for double.
double float_tolerance(DType t, int terms);

template <class T> CheckResult compare(View<const T> expected, View<const T> actual, int terms) {
  CheckResult r;
  const double tol = float_tolerance(dtype_of<T>(), terms);
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

// ---- diagnosis: what the numbers say is wrong ------------------------------------------
// A failing check shows where the values differ; these say WHY, from the values themselves
// (never from printed text), in one sentence that names the cause and what to look at, or ""
// when no known pattern fits. Unit-tested without MPI (tests/core/test_diagnose.cpp), and the
// exercises' mistakes tests check that each realistic mistake gets its sentence.

// A result against its reference, on n ranks. `what` names it ("the averaged gradient").
// Patterns: NaN/inf where the reference has none; nothing written (zeros); every wrong value
// exactly n times, or 1/n of, the expected one; every value scaled by one other factor.
std::string diagnose_values(const std::string& what, const std::vector<double>& expected,
                            const std::vector<double>& actual, int n);

// An optimizer step: the weights before, the reference's after and ours after. Patterns: the
// weights did not move (the step is missing); every weight moved the same factor times as far
// as it should (n: summed gradients; 1/n: divided twice; 2: the step taken twice; other: the
// learning rate).
std::string diagnose_step(const std::vector<double>& before, const std::vector<double>& expected_after,
                          const std::vector<double>& actual_after, int n);

template <class T>
std::string diagnose_values(const std::string& what, View<const T> expected, View<const T> actual, int n) {
  return diagnose_values(what, std::vector<double>(expected.begin(), expected.end()),
                         std::vector<double>(actual.begin(), actual.end()), n);
}
template <class T>
std::string diagnose_step(View<const T> before, View<const T> expected_after, View<const T> actual_after, int n) {
  return diagnose_step(std::vector<double>(before.begin(), before.end()),
                       std::vector<double>(expected_after.begin(), expected_after.end()),
                       std::vector<double>(actual_after.begin(), actual_after.end()), n);
}

}  // namespace ringlab
