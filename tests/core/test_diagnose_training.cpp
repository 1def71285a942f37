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
        "every parameter moved n = 3 times as far as it should in step 0: the SUM of the gradients was used "
        "where their mean belongs — divide the sum by the number of workers (comm.size() - 1).");
}

TEST_CASE("the mean over the workers divided by the number of ranks") {
  const auto text = diagnose_training(kStart, run(1), run(0.75, 0.75, 0.75), 3, kWorkers);
  CHECK(has(text, "every parameter moved 3/4 as far as it should in step 0"));
  CHECK(has(text, "the sum of 3 gradients was divided by 4 — the mean divides by the number of workers"));
}

TEST_CASE("a first step that is right and a second that is not: state carried over") {
  const auto text = diagnose_training(kStart, run(1), run(1, 2.5, 2), 3, kWorkers);
  CHECK(has(text, "step 0 is right and step 1 is wrong: something carries over from one step to the next"));
  CHECK(has(text, "a sum set to 0 at the start of every step"));
}

TEST_CASE("parameters that never move, move backwards, or become NaN") {
  CHECK(has(diagnose_training(kStart, run(1), run(0, 0, 0), 3, kWorkers),
            "did not change in step 0: the update is missing"));
  CHECK(has(diagnose_training(kStart, run(1), run(-1), 3, kWorkers), "moved the wrong way in step 0"));
  auto nan = run(1);
  nan[1][2] = NAN;
  CHECK(has(diagnose_training(kStart, run(1), nan, 3, kWorkers), "NaN or inf in step 1"));
  CHECK(has(diagnose_training(kStart, run(1), run(0.1), 3, kWorkers), "moved 0.1 times as far"));
}

TEST_CASE("no common factor: no claim") {
  auto odd = run(1);
  odd[0][1] += 0.2;  // one parameter off, the others right
  CHECK(diagnose_training(kStart, run(1), odd, 3, kWorkers).empty());
}

TEST_CASE("one worker, the sum divided by the 2 ranks; the mean divided twice") {
  CHECK(
      has(diagnose_training(kStart, run(1), run(0.5), 1, kWorkers),
          "every parameter moved 1/2 as far as it should in step 0: the sum of 1 gradient was divided by 2"));
  CHECK(has(diagnose_training(kStart, run(1), run(1.0 / 3), 3, kWorkers),
            "moved 1/3 as far as it should in step 0: the sum was divided by 3 twice"));
}
