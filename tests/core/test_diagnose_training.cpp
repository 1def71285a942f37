// diagnose_training: each way a training step goes wrong, fed as parameters per step, gets the
// sentence that names it; right steps and patternless ones get none.
#include <cmath>  // NAN: Debian 12's headers pull it in by chance, Debian 13's do not

#include "catch.hpp"
#include "ringlab/check/diagnose_training.hpp"

using ringlab::diagnose_training;

namespace {
bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }
const std::vector<double> kStart{0.5, -1.0, 2.0, 0.0};
const std::vector<double> kMove{-0.1, 0.3, 0.05, -0.2};  // the right step 0
std::vector<double> after(const std::vector<double>& from, double scale) {
  std::vector<double> p(from);
  for (std::size_t i = 0; i < p.size(); ++i) p[i] += scale * kMove[i];
  return p;
}
// Three steps, each moving by kMove times the step's factor.
std::vector<std::vector<double>> run(double f0, double f1 = 1, double f2 = 1) {
  std::vector<std::vector<double>> steps{after(kStart, f0)};
  steps.push_back(after(steps.back(), f1));
  steps.push_back(after(steps.back(), f2));
  return steps;
}
const std::string kWorkers = "the number of workers (comm.size() - 1)";
}  // namespace

TEST_CASE("right steps have no diagnosis") {
  CHECK(diagnose_training(kStart, run(1), run(1), 3, kWorkers).empty());
}

TEST_CASE("the sum of the gradients where the mean belongs") {
  const auto text = diagnose_training(kStart, run(1), run(3, 3, 3), 3, kWorkers);
  CHECK(text ==
        "every parameter moved n = 3 times as far as it should in step 0 (e.g. [1] moved 0.9, not 0.3): the SUM "
        "of the gradients was used where their mean belongs — divide the sum by the number of workers "
        "(comm.size() - 1).");
}

TEST_CASE("n = 2 times is also twice: the sum is one possibility, not the cause") {
  const auto text = diagnose_training(kStart, run(1), run(2, 2, 2), 2, kWorkers);
  CHECK(has(text, "every parameter moved n = 2 times as far as it should in step 0 (e.g. [1] moved 0.6, not 0.3)"));
  CHECK(has(text, "does not single out one cause; one possibility is that the SUM of the gradients"));
  CHECK(has(text, "another, that the step was taken twice."));
}

TEST_CASE("the mean over the workers divided by the number of ranks") {
  const auto text = diagnose_training(kStart, run(1), run(0.75, 0.75, 0.75), 3, kWorkers);
  CHECK(has(text, "every parameter moved 3/4 as far as it should in step 0"));
  CHECK(has(text, "the sum of 3 gradients was divided by 4 — the mean divides by the number of workers"));
}

TEST_CASE("the sum divided by the number of parameters: a mean over the elements") {
  const auto text = diagnose_training(kStart, run(1), run(0.25, 0.25, 0.25), 1, kWorkers);
  CHECK(has(text, "every parameter moved 0.25 = n / size = 1 / 4 times as far as it should in step 0 (e.g. [1] moved "
                  "0.075, not 0.3): the sum of the 1 gradient was divided by the number of parameters (4, a mean over "
                  "the elements) — the mean divides by the number of workers"));
}

TEST_CASE("a first step that is right and a second that is not: carried over only when the evidence says so") {
  // Step 1 should move by kOther; it moved by kOther plus step 0's move again: a sum not reset.
  const std::vector<double> kOther{0.2, 0.1, -0.3, 0.05};
  std::vector<std::vector<double>> want{after(kStart, 1), after(kStart, 1)}, got = want;
  for (std::size_t i = 0; i < kStart.size(); ++i) {
    want[1][i] += kOther[i];
    got[1][i] += kOther[i] + kMove[i];
  }
  const auto text = diagnose_training(kStart, want, got, 3, kWorkers);
  CHECK(has(text, "step 0 is right and step 1 is wrong; how far it moved: 4 wrong values, e.g. [0] expected 0.2 "
                  "got 0.1; every wrong value is the right value plus one term again"));
  CHECK(has(text, ": something carries over from one step to the next — reset what the step accumulates (a sum "
                  "set to 0 at the start of every step)"));
  CHECK_FALSE(has(text, "possibility"));
  SECTION("a move twice the right one is also the step before's again: one possibility") {
    const auto twice = diagnose_training(kStart, run(1), run(1, 2, 1), 3, kWorkers);
    CHECK(has(twice, "does not single out one cause; one possibility is something carries over"));
  }
  SECTION("another factor: the evidence, and no carry-over claimed") {
    const auto scaled = diagnose_training(kStart, run(1), run(1, 2.5, 2), 3, kWorkers);
    CHECK(has(scaled, "every wrong value is 2.5 times the right value."));
    CHECK_FALSE(has(scaled, "carries over"));
  }
  SECTION("no relation: what is known, then the likeliest cause as one possibility among others") {
    got[1][2] += 0.7;
    const auto none = diagnose_training(kStart, want, got, 3, kWorkers);
    CHECK(has(none, "no simple relation to the right value holds for all of them. One possibility is that something "
                    "carries over from one step to the next"));
    CHECK(has(none, "a wrong order of operations can do this too."));
  }
}

TEST_CASE("parameters that never move, move backwards, or become NaN") {
  const auto still = diagnose_training(kStart, run(1), run(0, 0, 0), 3, kWorkers);
  CHECK(has(still, "did not change in step 0, though they should have"));
  CHECK(has(still, "one possibility is that the update is missing; another, that what it added was 0"));
  CHECK_FALSE(has(still, "never reach"));  // (the caller holds the parameters: they need not arrive)
  // From 0, parameters used in the gradient's place add 0: said only when they start at 0.
  CHECK_FALSE(has(still, "the parameters start at 0"));
  const std::vector<double> zero(kStart.size(), 0.0);
  CHECK(has(diagnose_training(zero, {kMove}, {zero}, 3, kWorkers), "the parameters start at 0"));
  CHECK(has(diagnose_training(kStart, run(1), run(-1), 3, kWorkers), "moved the wrong way in step 0"));
  auto nan = run(1);
  nan[1][2] = NAN;
  CHECK(has(diagnose_training(kStart, run(1), nan, 3, kWorkers), "NaN or inf in step 1"));
  CHECK(has(diagnose_training(kStart, run(1), run(0.1), 3, kWorkers), "moved 0.1 times as far"));
}

TEST_CASE("step 0's factor goes to the caller, for the runs together: 0 when nothing moved") {
  double k = NAN;
  diagnose_training(kStart, run(1), run(0, 0, 0), 3, kWorkers, {}, &k);
  CHECK(k == 0);
  k = NAN;
  diagnose_training(kStart, run(1), run(0.1), 3, kWorkers, {}, &k);
  CHECK(k == Approx(0.1));
  k = NAN;  // a right step 0 has no factor to tell
  diagnose_training(kStart, run(1), run(1, 2.5, 2), 3, kWorkers, {}, &k);
  CHECK(std::isnan(k));
}

TEST_CASE("no common factor: no claim") {
  auto odd = run(1);
  odd[0][1] += 0.2;  // one parameter off, the others right
  CHECK(diagnose_training(kStart, run(1), odd, 3, kWorkers).empty());
}

TEST_CASE("one worker, the sum divided by the 2 ranks; the mean divided twice") {
  CHECK(
      has(diagnose_training(kStart, run(1), run(0.5), 1, kWorkers),
          "every parameter moved 1/2 as far as it should in step 0 (e.g. [1] moved 0.15, not 0.3): the sum of 1 "
          "gradient was divided by 2"));
  CHECK(has(diagnose_training(kStart, run(1), run(1.0 / 3), 3, kWorkers),
            "moved 1/3 as far as it should in step 0 (e.g. [1] moved 0.1, not 0.3): the sum was divided by 3 twice"));
}

TEST_CASE("a step that moved by only the last gradient's part: the sum was overwritten") {
  // Two workers' parts of the right move in step 0 (they add up to kMove), in arrival order.
  const std::vector<double> first{-0.3, 0.1, 0.05, 0.1}, last{0.2, 0.2, 0.0, -0.3};
  const std::vector<std::vector<std::vector<double>>> parts{{first, last}};
  std::vector<std::vector<double>> actual{kStart};
  for (std::size_t i = 0; i < kStart.size(); ++i) actual[0][i] += last[i];
  const auto text = diagnose_training(kStart, {after(kStart, 1)}, actual, 2, kWorkers, parts);
  CHECK(has(text, "step 0 is wrong; how far it moved: 4 wrong values, e.g. [0] expected -0.1 got 0.2; every wrong "
                  "value equals what arrived"));
  CHECK(has(text, ": only the last gradient to arrive counts: the step used it alone, not the sum of all of them — "
                  "one possibility is the sum overwritten (=)"));
  // One part twice is the other relation to the parts.
  for (std::size_t i = 0; i < kStart.size(); ++i) actual[0][i] = kStart[i] + kMove[i] + first[i];
  CHECK(has(diagnose_training(kStart, {after(kStart, 1)}, actual, 2, kWorkers, parts),
            "every wrong value is the right value plus one term again (a term counted twice): one gradient is added "
            "twice."));
  // Without the parts there is no claim.
  CHECK(diagnose_training(kStart, {after(kStart, 1)}, actual, 2, kWorkers).empty());
}

TEST_CASE("step 0 right up to [k] and not moved from there on: the update stopped at k, named when k is n") {
  // 2 workers: the update loop ran over [0, 2) only.
  auto got = run(1);
  for (std::size_t i = 2; i < kStart.size(); ++i) got[0][i] = kStart[i];
  const auto text = diagnose_training(kStart, run(1), got, 2, kWorkers);
  CHECK(has(text, "step 0 is wrong; how far it moved: [0, 2) moved as they should, and not one from [2] to the end "
                  "(2 parameters) moved at all: the update stopped at [2] — one possibility is a loop over the "
                  "parameters bounded by 2 (the number of gradients: the number of workers (comm.size() - 1)) where "
                  "the parameters' size belongs."));
  CHECK_FALSE(has(text, "the update of this step is missing"));
  // Stopped at 1 with 3 workers: said, k not named.
  auto one = run(1);
  for (std::size_t i = 1; i < kStart.size(); ++i) one[0][i] = kStart[i];
  const auto at_one = diagnose_training(kStart, run(1), one, 3, kWorkers);
  CHECK(has(at_one, "the update stopped at [1] — one possibility is a loop over the parameters bounded by 1 where"));
  // A tail that moved, wrongly, is not a loop that stopped.
  auto moved = run(1);
  for (std::size_t i = 2; i < kStart.size(); ++i) moved[0][i] = kStart[i] + 7 * kMove[i];
  CHECK_FALSE(has(diagnose_training(kStart, run(1), moved, 2, kWorkers), "stopped at"));
}

TEST_CASE("a move that is the gradients' shares with weights of their own: the weights, and a loop's scaling") {
  // Three workers' shares of the right move over 8 parameters, in arrival order; the sum scaled
  // by 1/3 after each one: the first counts 1/9 of its share, the second 1/3, the last 1.
  const std::size_t size = 8;
  std::vector<std::vector<double>> shares(3, std::vector<double>(size));
  for (std::size_t w = 0; w < 3; ++w)
    for (std::size_t i = 0; i < size; ++i) shares[w][i] = 0.01 * double((7 * i + 3 * w * w + 1) % 11) - 0.05;
  const std::vector<double> start(size, 0.0);
  std::vector<double> right(size), got(size);
  for (std::size_t i = 0; i < size; ++i) {
    right[i] = shares[0][i] + shares[1][i] + shares[2][i];
    got[i] = shares[0][i] / 9 + shares[1][i] / 3 + shares[2][i];
  }
  const std::vector<std::vector<std::vector<double>>> parts{shares};
  const auto text = diagnose_training(start, {right}, {got}, 3, kWorkers, parts);
  CHECK(has(text, "every one is the gradients' shares summed with weights 1/9, 1/3 and 1 (in the order they "
                  "arrive), where each counts once: each gradient counts 3 times as much as the one before it — one "
                  "possibility is that the sum is scaled inside the loop that adds them"));
  // Weights with no such pattern: only the weights.
  for (std::size_t i = 0; i < size; ++i) got[i] = shares[0][i] / 2 + shares[1][i] + shares[2][i];
  const auto uneven = diagnose_training(start, {right}, {got}, 3, kWorkers, parts);
  CHECK(has(uneven, "summed with weights 1/2, 1 and 1 (in the order they arrive), where each counts once."));
  CHECK_FALSE(has(uneven, "inside the loop"));
  // The last one never counted: the add before the receive.
  for (std::size_t i = 0; i < size; ++i) got[i] = shares[0][i] + shares[1][i];
  CHECK(has(diagnose_training(start, {right}, {got}, 3, kWorkers, parts),
            "summed with weights 1, 1 and 0 (in the order they arrive), where each counts once: the last gradient to "
            "arrive never counted, every other one once — one possibility is the add before the receive"));
}

TEST_CASE("parameters that become the step's move alone: the step assigned (=) where it must be added (-=)") {
  const std::vector<double> zero(4, 0.0);
  std::vector<std::vector<double>> right{after(zero, 1)}, assigned{kMove};
  for (int k = 1; k < 3; ++k) right.push_back(after(right.back(), 1)), assigned.push_back(kMove);
  const auto text = diagnose_training(zero, right, assigned, 3, kWorkers);
  CHECK(has(text, "step 0 is right and step 1 is wrong: 4 parameters after it, e.g. [0] -0.1 where -0.2 belongs, are "
                  "how far they should have moved, not the parameters plus that: the update assigned the step to the "
                  "parameters (=, or =-) where it must add it to them (-=) — from parameters 0, as at the start, the "
                  "two agree, which is why step 0 is right."));
}

TEST_CASE("parameters where the right move puts ones that start at 0: they were set to 0 first") {
  auto actual = run(1);
  actual[0] = kMove;  // reset to 0, then the right move
  const auto text = diagnose_training(kStart, run(1), actual, 3, kWorkers);
  CHECK(has(text, "step 0 is wrong: every wrong parameter is where the right move puts one that starts at 0 (e.g. "
                  "[0] started at 0.5 and should be at 0.4; it is at -0.1, that less 0.5): the parameters' old values are "
                  "gone — one possibility is that the update assigns the step (=)"));
  CHECK(has(text, "another, that the parameters were set to 0 before the update"));
}
