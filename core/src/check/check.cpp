#include "ringlab/check/check.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

#include "ringlab/base/plural.hpp"

namespace ringlab {

double float_tolerance(DType t, int terms) {
  const double per_term = t == DType::f32 ? 1e-6 : t == DType::f64 ? 1e-14 : 0;
  return per_term * std::max(terms, 1);
}

std::string describe(const CheckResult& r) {
  if (r.wrong == 0) return {};
  std::ostringstream s;
  s << r.wrong << " wrong; first:";
  for (const auto& m : r.first)
    s << " [" << m.index << "] expected " << m.expected << " got " << m.actual << ";";
  return s.str();
}

// ---- diagnosis ----------------------------------------------------------------------------
namespace {

bool close(double a, double b, double rel) {
  return std::fabs(a - b) <= rel * std::fmax(std::fabs(a), std::fabs(b));
}

std::string number(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

// The one factor k with actual[i] == k * expected[i] for every i in `which` whose expected value
// is not ~0, if there is one (to 0.1%); NaN otherwise.
double common_factor(const std::vector<double>& expected, const std::vector<double>& actual,
                     const std::vector<std::size_t>& which) {
  double k = NAN;
  std::size_t used = 0;
  double largest = 0;
  for (std::size_t i : which) largest = std::fmax(largest, std::fabs(expected[i]));
  for (std::size_t i : which) {
    if (std::fabs(expected[i]) <= 1e-3 * largest) continue;  // ratios of tiny values are noise
    const double r = actual[i] / expected[i];
    if (used++ == 0) k = r;
    else if (!close(r, k, 1e-3)) return NAN;
  }
  return used >= 1 ? k : NAN;
}

// "n times too big", "n times too small", or a plain factor, for a quantity named `what`.
std::string factor_text(double k, int n, const std::string& what) {
  if (n > 1 && close(k, n, 1e-3))
    return what + " is exactly n = " + std::to_string(n) +
           " times too big: summed where the mean belongs — divide by "
           "the number of ranks (comm.size()).";
  if (n > 1 && close(k, 1.0 / n, 1e-3))
    return what + " is exactly n = " + std::to_string(n) +
           " times too small: divided by the number of ranks once too "
           "often (or where a sum was wanted).";
  return "";
}

}  // namespace

std::string diagnose_values(const std::string& what, const std::vector<double>& expected,
                            const std::vector<double>& actual, int n) {
  const std::size_t size = std::min(expected.size(), actual.size());
  std::vector<std::size_t> wrong;
  for (std::size_t i = 0; i < size; ++i) {
    if (!std::isfinite(actual[i]) && std::isfinite(expected[i]))
      return what + " has NaN or inf values (the first at [" + std::to_string(i) +
             "]): a division by zero, or values read from memory nobody wrote.";
    if (!close(actual[i], expected[i], 1e-5) && std::fabs(actual[i] - expected[i]) > 1e-30)
      wrong.push_back(i);
  }
  if (wrong.empty()) return "";
  if (std::all_of(wrong.begin(), wrong.end(), [&](std::size_t i) { return actual[i] == 0; }))
    return what + " is 0 in " + std::to_string(wrong.size()) + " of " + plural(static_cast<long long>(size), "element") +
           " where it should not be: one possibility is that those were never written (a missing call, or "
           "a loop that stops early); another, that they were multiplied by 0 (a factor such as 1 / n "
           "computed in integers).";
  const double k = common_factor(expected, actual, wrong);
  if (std::isnan(k)) return "";
  std::string text = factor_text(k, n, "every wrong value of " + what);
  if (!text.empty()) return text;
  if (close(k, -1, 1e-3))
    return "every wrong value of " + what + " has the wrong sign: a subtraction turned round.";
  return "every wrong value of " + what + " is " + number(k) +
         " times the expected one: a scale factor (a division, a learning rate) is wrong.";
}

std::string diagnose_step(const std::vector<double>& before, const std::vector<double>& expected_after,
                          const std::vector<double>& actual_after, int n) {
  const std::size_t size = std::min({before.size(), expected_after.size(), actual_after.size()});
  std::vector<double> want(size), got(size);
  bool moved = false, nan = false;
  for (std::size_t i = 0; i < size; ++i) {
    want[i] = expected_after[i] - before[i];
    got[i] = actual_after[i] - before[i];
    moved = moved || got[i] != 0;
    nan = nan || !std::isfinite(actual_after[i]);
  }
  if (nan) return "the weights became NaN or inf in the step: a division by zero in the update.";
  if (!moved)
    return "the weights did not change: the optimizer step is missing (after averaging the gradients, call "
           "sgd_momentum_update).";
  std::vector<std::size_t> all(size);
  std::iota(all.begin(), all.end(), 0);
  const double k = common_factor(want, got, all);
  if (std::isnan(k)) return "";
  std::string text = factor_text(k, n, "every weight's step");
  if (!text.empty()) return text;
  if (close(k, 2, 1e-3))
    return "every weight moved 2 times as far as it should: the optimizer step is taken twice.";
  if (close(k, 1, 1e-3)) return "";
  if (close(k, -1, 1e-3))
    return "every weight moved the wrong way: the update adds lr * velocity instead of subtracting it.";
  return "every weight moved " + number(k) +
         " times as far as it should: the optimizer step is taken more "
         "than once (with momentum a second step goes 1 + momentum further), or the learning rate or the "
         "gradient's scale is wrong.";
}

std::string diagnose_allreduce(const std::vector<std::vector<double>>& inputs,
                               const std::vector<double>& result, int rank) {
  const int n = static_cast<int>(inputs.size());
  if (n < 2 || n > 6 || rank < 0 || rank >= n) return "";
  const std::size_t count = result.size();
  for (const auto& in : inputs)
    if (in.size() != count) return "";
  auto same = [](double a, double b) { return std::fabs(a - b) <= 1e-5 * std::fmax(1.0, std::fabs(b)); };
  // Each chunk is judged on its first few elements; a chunk of fewer than 3 says too little
  // (one number matches many sums by chance), so then no pattern is claimed at all.
  constexpr std::size_t kSample = 16, kMinElements = 3;
  // Multiplicities m[k] of each rank's input in a sum: partial sums use 0/1 on a run of
  // neighbours; an allgather that adds piles partial sums on top of the total (m up to n - 1).
  auto combination = [&](const std::vector<int>& m, std::size_t i) {
    double s = 0;
    for (int k = 0; k < n; ++k) s += m[k] * inputs[k][i];
    return s;
  };
  auto chunk_is = [&](const Chunk& c, auto value) {
    for (std::size_t i = c.offset; i < c.offset + std::min(c.count, kSample); ++i)
      if (!same(result[i], value(i))) return false;
    return true;
  };
  const int most = n <= 4 ? n - 1 : 2;
  enum Kind { right, partial, total_plus, own_input, other };
  int count_of[5] = {0, 0, 0, 0, 0};
  for (int j = 0; j < n; ++j) {
    const Chunk c = chunk_of(count, n, j);
    if (c.count < kMinElements) return "";
    std::vector<int> ones(n, 1);
    Kind kind = other;
    if (chunk_is(c, [&](std::size_t i) { return combination(ones, i); })) kind = right;
    else if (chunk_is(c, [&](std::size_t i) { return inputs[rank][i]; })) kind = own_input;
    for (int first = 0; first < n && kind == other; ++first)
      for (int len = 1; len < n && kind == other; ++len) {
        std::vector<int> m(n, 0);
        for (int k = 0; k < len; ++k) m[(first + k) % n] = 1;
        if (chunk_is(c, [&](std::size_t i) { return combination(m, i); })) kind = partial;
      }
    // total + extra, extra = any non-zero combination with multiplicities 0..most
    std::vector<int> m(n, 0);
    while (kind == other) {
      int k = 0;
      while (k < n && m[k] == most) m[k++] = 0;
      if (k == n) break;
      ++m[k];
      if (chunk_is(c, [&](std::size_t i) { return combination(ones, i) + combination(m, i); }))
        kind = total_plus;
    }
    ++count_of[kind];
  }
  if (count_of[right] == n) return "";
  if (count_of[own_input] == n)
    return "every rank's result is its own input: nothing was exchanged (the loops never run, or write "
           "somewhere else).";
  if (count_of[right] + count_of[total_plus] == n && count_of[total_plus] > 0)
    return "the allgather adds what arrives instead of copying it: values are too big by exactly the partial "
           "sums the reduce-scatter left — in the allgather, receive straight into the chunk (no "
           "reduce_sum).";
  if (count_of[right] == 1 && count_of[partial] + count_of[own_input] == n - 1)
    return "every rank holds exactly one finished chunk and partial sums elsewhere: the allgather phase is "
           "missing (or sends the wrong chunks).";
  if (count_of[right] == 0 && count_of[partial] + count_of[own_input] == n)
    return "no chunk is finished anywhere, every one holds a partial sum: the allgather passes chunks on "
           "before they are finished — after the reduce-scatter rank r owns chunk r + 1; start from that "
           "one.";
  return "";
}

}  // namespace ringlab
