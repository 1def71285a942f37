// The check's diagnosis (check.hpp): each symptom, fed as data, must get the sentence that names
// its cause; right data and unknown patterns get none (no blame without evidence).
#include "catch.hpp"
#include "ringlab/check/check.hpp"

using ringlab::diagnose_step;
using ringlab::diagnose_values;

namespace {
bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }
const std::vector<double> kExpected{0.5, -1.25, 3.0, 0.0, 2.5e-3, -7.0};
std::vector<double> scaled(std::vector<double> v, double k) {
  for (double& x : v) x *= k;
  return v;
}
}  // namespace

TEST_CASE("right values have no diagnosis") {
  CHECK(diagnose_values("the result", kExpected, kExpected, 4).empty());
  CHECK(diagnose_step(kExpected, scaled(kExpected, 0.5), scaled(kExpected, 0.5), 4).empty());
}

TEST_CASE("values n times too big: summed where the mean belongs") {
  const auto text = diagnose_values("the averaged gradient", kExpected, scaled(kExpected, 3), 3);
  CHECK(has(text, "every wrong value of the averaged gradient is exactly n = 3 times too big"));
  CHECK(has(text, "divide by the number of ranks"));
}

TEST_CASE("values n times too small: divided once too often") {
  const auto text = diagnose_values("the result", kExpected, scaled(kExpected, 0.25), 4);
  CHECK(has(text, "exactly n = 4 times too small"));
}

TEST_CASE("another common factor is named as a scale factor") {
  CHECK(has(diagnose_values("the result", kExpected, scaled(kExpected, 1.5), 4),
            "is 1.5 times the expected one"));
  CHECK(has(diagnose_values("the result", kExpected, scaled(kExpected, -1), 4), "wrong sign"));
}

TEST_CASE("NaN gets one explanation, never also a factor") {
  auto actual = scaled(kExpected, 2);
  actual[4] = NAN;
  const auto text = diagnose_values("the result", kExpected, actual, 2);
  CHECK(has(text, "NaN or inf values (the first at [4])"));
  CHECK_FALSE(has(text, "times"));
}

TEST_CASE("zeros where values belong: never written, or multiplied by 0, and the sentence says both") {
  auto actual = kExpected;
  actual[0] = actual[2] = 0;
  const auto text = diagnose_values("the result", kExpected, actual, 2);
  CHECK(has(text, "is 0 in 2 of 6 elements"));
  CHECK(has(text, "one possibility is that those were never written"));
  CHECK(has(text, "multiplied by 0"));
}

TEST_CASE("no common pattern: no diagnosis") {
  auto actual = kExpected;
  actual[0] = 7;
  actual[1] = 2;
  CHECK(diagnose_values("the result", kExpected, actual, 2).empty());
}

TEST_CASE("a step: missing, n times too big or small, doubled, wrong learning rate, wrong direction") {
  const std::vector<double> before{1, 2, 3, 4};
  const std::vector<double> step{-0.01, 0.02, 0.005, -0.03};
  auto after = [&](double k) {
    std::vector<double> a(before);
    for (std::size_t i = 0; i < a.size(); ++i) a[i] += k * step[i];
    return a;
  };
  CHECK(has(diagnose_step(before, after(1), before, 4),
            "the weights did not change: the optimizer step is missing"));
  CHECK(has(diagnose_step(before, after(1), after(4), 4),
            "every weight's step is exactly n = 4 times too big"));
  CHECK(has(diagnose_step(before, after(1), after(0.25), 4), "exactly n = 4 times too small"));
  CHECK(has(diagnose_step(before, after(1), after(2), 4), "the optimizer step is taken twice"));
  CHECK(has(diagnose_step(before, after(1), after(2.9), 4),
            "2.9 times as far as it should: the optimizer step is taken more than once"));
  CHECK(has(diagnose_step(before, after(1), after(-1), 4), "the wrong way"));
  CHECK(has(diagnose_step(before, after(1), after(0.1), 4), "0.1 times as far"));
}

TEST_CASE("allreduce: an allgather that adds, a missing allgather, nothing exchanged") {
  // 3 ranks, 9 elements (3 per chunk); inputs chosen so that no two sums coincide.
  const std::vector<std::vector<double>> in{{1, 2, 3, 4, 5, 6, 7, 8, 9},
                                            {10, 21, 30, 41, 50, 61, 70, 81, 90},
                                            {100, 203, 300, 404, 500, 605, 700, 806, 900}};
  std::vector<double> total(9);
  for (int i = 0; i < 9; ++i) total[i] = in[0][i] + in[1][i] + in[2][i];
  CHECK(ringlab::diagnose_allreduce(in, total, 1).empty());
  // Rank 0 after the reduce-scatter: chunk 1 finished; chunk 0 its own input; chunk 2 = c0 + c2.
  std::vector<double> no_allgather(9);
  for (int i = 0; i < 9; ++i) no_allgather[i] = i < 3 ? in[0][i] : i < 6 ? total[i] : in[0][i] + in[2][i];
  CHECK(has(ringlab::diagnose_allreduce(in, no_allgather, 0), "exactly one finished chunk"));
  // With an allgather that adds: chunk 0 = a0 + total, chunk 2 = (c0 + c2) + (c2 + total).
  std::vector<double> adds(9);
  for (int i = 0; i < 9; ++i)
    adds[i] = i < 3 ? total[i] + in[0][i] : i < 6 ? total[i] : total[i] + in[0][i] + 2 * in[2][i];
  CHECK(
      has(ringlab::diagnose_allreduce(in, adds, 0), "the allgather adds what arrives instead of copying it"));
  CHECK(has(ringlab::diagnose_allreduce(in, in[2], 2), "its own input: nothing was exchanged"));
  // Off by one: the allgather passes unfinished chunks; only partial sums anywhere.
  std::vector<double> unfinished(9);
  for (int i = 0; i < 9; ++i)
    unfinished[i] = i < 3 ? in[0][i] + in[1][i] : i < 6 ? in[1][i] : in[2][i] + in[0][i];
  CHECK(has(ringlab::diagnose_allreduce(in, unfinished, 0),
            "the allgather passes chunks on before they are finished"));
  const std::vector<double> noise(9, 7.0);
  CHECK(ringlab::diagnose_allreduce(in, noise, 0).empty());
  // Chunks of 1 element say too little: no pattern is claimed.
  const std::vector<std::vector<double>> tiny{{1, 2, 3}, {10, 20, 30}, {100, 200, 300}};
  CHECK(ringlab::diagnose_allreduce(tiny, {1, 222, 303}, 0).empty());
}
