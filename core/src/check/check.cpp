#include "ringlab/check/check.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

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
  int single = 0;                // chunks that hold one rank's input, no sum
  std::vector<int> from(n, -1);  // ... and whose input chunk j holds
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
        if (kind == partial && len == 1) ++single, from[j] = first;  // one rank's input alone
      }
    if (kind == own_input) ++single, from[j] = rank;
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
    return "every rank holds exactly one finished chunk and partial sums elsewhere: the finished chunks never "
           "reached the other ranks' buffers — one possibility is that the allgather phase is missing or sends the "
           "wrong chunks; another, that what it receives never reaches the chunk (a receive into a scratch buffer "
           "that is never copied into it).";
  // Every chunk one rank's input alone: whose input it is tells where the additions went. The ring
  // has rank r send chunk r first (step 0) and own chunk r + 1 at the end (it receives it last).
  if (count_of[right] == 0 && single == n) {
    auto all_from = [&](int shift) {
      for (int j = 0; j < n; ++j)
        if (from[j] != (j + shift + n) % n) return false;
      return true;
    };
    const std::string evidence = "every chunk holds exactly one rank's input and no sum: nothing was added anywhere";
    if (all_from(0))
      return evidence + " — chunk j holds rank j's input, as rank j sent it at step 0: it went round the ring "
                        "unchanged, each hop's arrival replacing the chunk: what arrives is received straight into "
                        "the chunk where it must be added to it (receive into a scratch buffer, then reduce_sum).";
    if (all_from(-1))
      return evidence + " — chunk j holds the input of rank j - 1, the rank that owns it after the "
                        "reduce-scatter, unchanged: nothing that arrived was ever added into the chunk a rank passes "
                        "on. One possibility is that the sum goes elsewhere: reduce_sum(into, from) adds `from` "
                        "into `into`, so the chunk must be `into`.";
    return evidence + " — where the reduce-scatter sends as the ring does, the chunk it passes on is never the sum: "
                      "one possibility is that what arrives replaces the chunk; another, that the sum goes "
                      "elsewhere (reduce_sum(into, from) adds `from` into `into`: the chunk must be `into`).";
  }
  if (count_of[right] == 0 && count_of[partial] + count_of[own_input] == n)
    return "no chunk is finished anywhere, every one holds a partial sum: the allgather passes chunks on "
           "before they are finished — after the reduce-scatter rank r owns chunk r + 1; start from that "
           "one.";
  return "";
}

}  // namespace ringlab
