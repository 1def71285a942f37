// Lesson 07's check (check.hpp) on schedules with a slip in them, written here as lambdas: it
// describes the shape of the learner's functions (the exponents of the scaling rule; where the
// warm-up starts, which line it climbs, when it becomes the target) and names the cause only
// when the shape singles it out.
#include <cmath>
#include <string>

#include "catch.hpp"
#include "check.hpp"

using namespace lesson07;

namespace {
bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

double rule(double base, int n, Scaling s) { return reference_lr(base, n, s, 0, 0); }

// The right warm-up with `progress` in place of step / warmup_steps.
LearningRate ramp(std::function<double(long long step, long long warmup)> progress) {
  return [progress](double base, int n, Scaling s, long long step, long long warmup) {
    const double target = rule(base, n, s);
    if (step >= warmup) return target;
    return base + (target - base) * progress(step, warmup);
  };
}

std::string shape_of(const LearningRate& lr, int n = 4) {
  const WarmupShape shape =
      warmup_shape(lr, rule(0.02, n, Scaling::linear), 0.02, n, Scaling::linear, 10, true);
  return shape.right ? "right" : shape.evidence + " | " + shape.cause + " | " + shape.possibility;
}

std::vector<Case> every_case() {
  std::vector<Case> cases;
  for (int n : {1, 2, 3, 4, 8})
    for (Scaling s : {Scaling::none, Scaling::linear, Scaling::sqrt}) cases.push_back({n, s, 1});
  return cases;
}
}  // namespace

TEST_CASE("the solution's schedule passes, and its rules have the right exponents") {
  CHECK(check_schedule(false));
  CHECK(scaling_diagnoses(scaled_lr).empty());
  const PowerLaw p = power_law([](double b, int n) { return scaled_lr(b, n, Scaling::sqrt); });
  CHECK(p.fits);
  CHECK(p.c == 1);
  CHECK(p.e_base == 1);
  CHECK(p.e_n == 0.5);
}

TEST_CASE("a scaling rule is described by how it grows with base_lr and n") {
  auto diagnosis = [](std::function<double(double, int)> f, Scaling s) {
    return scaling_diagnosis("f", f, s);
  };
  SECTION("the square root of the product") {
    CHECK(diagnosis([](double b, int n) { return std::sqrt(b * n); }, Scaling::sqrt) ==
          "f grows as base_lr^0.5 * n^0.5; the sqrt rule is base_lr * n^0.5: the square root is taken of the "
          "product base_lr * n, not of n alone.");
  }
  SECTION("another rule's exponent of n") {
    CHECK(diagnosis([](double b, int n) { return b * n; }, Scaling::sqrt) ==
          "f grows as base_lr * n; the sqrt rule is base_lr * n^0.5: the linear rule's n where sqrt's n^0.5 "
          "belongs.");
    CHECK(has(diagnosis([](double b, int) { return b; }, Scaling::linear), "the none rule's n^0 (n unused)"));
    CHECK(has(diagnosis([](double b, int n) { return b / n; }, Scaling::linear),
              "grows as base_lr * n^-1; the linear rule is base_lr * n: n enters as n^-1 where linear's n "
              "belongs"));
  }
  SECTION("the right exponents, a constant factor off") {
    CHECK(diagnosis([](double b, int n) { return 2 * b * n; }, Scaling::linear) ==
          "f grows as 2 * base_lr * n; the linear rule is base_lr * n: every rate is 2 times the rule's (a "
          "constant "
          "factor).");
  }
  SECTION("base_lr twice: evidence, and the cause only as a possibility") {
    CHECK(has(diagnosis([](double b, int n) { return b * b * n; }, Scaling::linear),
              "grows as base_lr^2 * n; the linear rule is base_lr * n: base_lr enters as base_lr^2 where it "
              "belongs "
              "once, as a factor (one possibility is"));
  }
  SECTION("not a power law: the values, and a whole-number factor when that is what they are") {
    const auto text =
        diagnosis([](double b, int n) { return b * static_cast<int>(std::sqrt(double(n))); }, Scaling::sqrt);
    CHECK(
        has(text,
            "f is not a power law of base_lr and n: at base_lr 0.02 and n = 1, 2, 3, 4, 8 it is 0.02, 0.02, "
            "0.02, 0.04, 0.04; the sqrt rule is base_lr * n^0.5: 0.02, 0.02828"));
    CHECK(has(text, "rounded down to a whole number"));
    CHECK_FALSE(
        has(diagnosis([](double b, int n) { return b * (n + 1) / 2; }, Scaling::linear), "rounded down"));
    CHECK(has(diagnosis([](double b, int n) { return b * std::round(std::sqrt(double(n))); }, Scaling::sqrt),
              "it is 0.02, 0.02, 0.04, 0.04, 0.06; the sqrt rule is base_lr * n^0.5: 0.02, 0.02828, 0.03464, 0.04, "
              "0.05657: every value is base_lr times the rule's factor rounded to the nearest whole number "
              "(std::round), where the factor itself belongs."));
    CHECK(has(diagnosis([](double b, int n) { return b * std::ceil(std::sqrt(double(n))); }, Scaling::sqrt),
              "rounded up to a whole number (std::ceil)"));
  }
  SECTION("0 at every n: base_lr counted as 0") {
    const auto text =
        diagnosis([](double b, int n) { return static_cast<double>(static_cast<int>(b) * n); }, Scaling::linear);
    CHECK(has(text, "it is 0, 0, 0, 0, 0; the linear rule is base_lr * n: 0.02, 0.04, 0.06, 0.08, 0.16: 0 at every "
                    "n, as if base_lr were 0 — one possibility is base_lr converted to a whole number"));
    CHECK_FALSE(has(text, "rounded down"));
  }
  SECTION("not a power law, but the rule at n - 1: one rank counted too few") {
    const auto text = diagnosis([](double b, int n) { return b * (n - 1); }, Scaling::linear);
    CHECK(has(text, "it is 0, 0.02, 0.04, 0.06, 0.14; the linear rule is base_lr * n: 0.02, 0.04, 0.06, 0.08, 0.16: "
                    "every value is the linear rule at n - 1 (base_lr * n with n - 1 for n), which is also base_lr "
                    "* n - base_lr — one possibility is that the ranks were counted one too few"));
    CHECK(has(text, "another, that base_lr is taken off: the increase over base_lr"));
    CHECK(has(diagnosis([](double b, int n) { return b * std::sqrt(double(n + 1)); }, Scaling::sqrt),
              "every value is the sqrt rule at n + 1"));
  }
  SECTION("n^0 where n^0.5 belongs: an exponent cut to a whole number is one possibility") {
    CHECK(has(diagnosis([](double b, int n) { return b * std::pow(n, 1 / 2); }, Scaling::sqrt),
              "the none rule's n^0 (n unused) where sqrt's n^0.5 belongs (one possibility is the exponent computed "
              "in integers: 1 / 2 is 0 there)"));
  }
  SECTION("two rules with each other's formula: one line") {
    const auto lines = scaling_diagnoses([](double b, int n, Scaling s) {
      return rule(b, n, s == Scaling::linear ? Scaling::sqrt : s == Scaling::sqrt ? Scaling::linear : s);
    });
    REQUIRE(lines.size() == 1);
    CHECK(lines[0] ==
          "scaled_lr's linear and sqrt rules are swapped: linear grows as base_lr * n^0.5, sqrt as base_lr * "
          "n.");
  }
}

TEST_CASE("a warm-up is described by where it starts, which line it climbs and when it is the target") {
  CHECK(shape_of(ramp([](long long k, long long w) { return double(k) / double(w); })) == "right");
  CHECK(shape_of([](double b, int n, Scaling s, long long, long long) { return rule(b, n, s); }) ==
        "the rate is the target from step 0 | the warm-up is skipped | ");
  CHECK(shape_of(ramp([](long long k, long long w) { return double(k / w); })) ==
        "it starts at base_lr (0.02), stays there until step warmup_steps (10) | the progress stays 0 during "
        "the "
        "warm-up | an integer division (step / warmup_steps in integers is 0 until the end of the warm-up)");
  CHECK(
      shape_of(ramp([](long long k, long long w) { return double(k + 1) / double(w); })) ==
      "it starts at base_lr + one step of the climb (0.026), not base_lr, climbs with the right slope: the "
      "right "
      "line 1 step early; it is the target from step warmup_steps - 1 (9), not from step warmup_steps | the "
      "progress counts from step + 1 where step belongs | ");
  CHECK(shape_of(ramp([](long long k, long long w) { return double(k) / double(w + 1); })) ==
        "it starts at base_lr (0.02), climbs in a straight line towards 0.07455 at step warmup_steps (10) "
        "(it would "
        "meet the target at step warmup_steps + 1 (11)), where it jumps to the target | the climb is spread "
        "over "
        "warmup_steps + 1 steps: the progress divides by that | ");
  CHECK(
      shape_of([](double b, int n, Scaling s, long long k, long long w) {
        return k >= w ? rule(b, n, s) : rule(b, n, s) * double(k) / double(w);
      }) ==
      "it starts at 0, not base_lr, climbs in a straight line towards the target (0.08) at step warmup_steps "
      "(10) | the rate is target * progress: the climb must start at base_lr, base_lr + (target - base_lr) "
      "* progress | ");
  SECTION("base_lr * progress: at world 2 its slope is the right one, yet it is no shifted line") {
    const LearningRate to_base = [](double b, int n, Scaling s, long long k, long long w) {
      return k >= w ? rule(b, n, s) : b * double(k) / double(w);
    };
    CHECK(has(shape_of(to_base, 2),
              "climbs in a straight line towards base_lr (0.02) at step warmup_steps (10), "
              "where it jumps to the target |  | base_lr * progress"));
  }
  SECTION("a climb that would meet the target at n times warmup_steps: a warm-up stretched by n") {
    const LearningRate stretched = [](double b, int n, Scaling s, long long k, long long w) {
      return k >= w ? rule(b, n, s) : b + (rule(b, n, s) - b) * double(k) / double(w * n);
    };
    CHECK(shape_of(stretched, 2) ==
          "it starts at base_lr (0.02), climbs in a straight line towards 0.03 at step warmup_steps (10) (it would "
          "meet the target at step n × warmup_steps (20): its slope is 1/n of the right one), where it jumps to "
          "the target |  | the warm-up's length multiplied by the number of ranks n, where warmup_steps alone "
          "belongs");
    CHECK(has(shape_of(stretched, 3), "(it would meet the target at step 3 × warmup_steps") == false);
    CHECK(has(shape_of(stretched, 3), "at step n × warmup_steps (30): its slope is 1/n"));
  }
  SECTION("a climb that would meet the target at warmup_steps / n: the progress counted n times as fast") {
    const LearningRate steep = [](double b, int n, Scaling s, long long k, long long w) {
      return k >= w ? rule(b, n, s) : b + (rule(b, n, s) - b) * double(k * n) / double(w);
    };
    CHECK(shape_of(steep, 5) ==
          "it starts at base_lr (0.02), climbs in a straight line towards 0.42 at step warmup_steps (10) (it would "
          "meet the target at warmup_steps / n (step 2): its slope is n times the right one), where it jumps to "
          "the target |  | the progress multiplied by the number of ranks n (the steps of all ranks counted), "
          "where step / warmup_steps alone belongs");
    CHECK(has(shape_of(steep, 2), "at warmup_steps / n (step 5): its slope is n times"));
  }
  SECTION("a climb from 0 held up at base_lr: flat, then the line target * progress") {
    CHECK(shape_of([](double b, int n, Scaling s, long long k, long long w) {
            return k >= w ? rule(b, n, s) : std::fmax(b, rule(b, n, s) * double(k) / double(w));
          }) ==
          "it starts at base_lr (0.02), stays there until step 3, then climbs in a straight line towards the target "
          "(0.08) at step warmup_steps (10): a line that, drawn back, starts at 0 at step 0, held up at base_lr "
          "(0.02) until it passes it | the rate is the larger of base_lr and target * progress (a max with "
          "base_lr): a climb from 0 held up at base_lr, where the climb must start at base_lr | ");
  }
  SECTION("a staircase, a curve, an end one step early") {
    CHECK(has(
        shape_of(ramp([](long long k, long long w) { return double(k / 2 * 2) / double(w); })),
        "climbs in a staircase of 5 levels | the progress moves only every few steps | an integer division"));
    CHECK(
        has(shape_of(ramp([](long long k, long long w) { return std::pow(double(k) / double(w), 2); })),
            "does not climb in a straight line (from step 0: 0.02, 0.0206, 0.0224, 0.0254, 0.0296; the right "
            "line: 0.02, 0.026, 0.032, 0.038, 0.044) |  | "));
    CHECK(shape_of([](double b, int n, Scaling s, long long k, long long w) {
            return reference_lr(b, n, s, k + 1 >= w ? w : k, w);
          }) ==
          "it starts at base_lr (0.02), climbs in the right straight line; it is the target from step "
          "warmup_steps - 1 (9), not from step warmup_steps | the test that ends the warm-up is off by 1 (it "
          "ends too early) | ");
  }
  SECTION("the progress upside down: infinite at step 0, above the target after it") {
    CHECK(shape_of(ramp([](long long k, long long w) { return double(w) / double(k); })) ==
          "the rate is NaN or inf at step 0, and at every warm-up step k after it base_lr + (target - base_lr) * "
          "warmup_steps / k, above the target | the progress is warmup_steps / step, upside down — step / "
          "warmup_steps climbs from 0 at step 0 to 1 at warmup_steps | ");
    // Infinite at step 0 with no such climb after it: a division by zero, nothing more said.
    CHECK(has(shape_of(ramp([](long long k, long long w) { return double(k) / double(w) + 1.0 / double(k); })),
              "the rate is NaN or inf at step 0 |  | a division by zero"));
  }
}

TEST_CASE("the warm-up's diagnosis tells how many wrong warm-ups share the shape it describes") {
  const auto cases = every_case();
  CHECK(warmup_diagnosis(ramp([](long long k, long long w) { return double(k) / double(w); }), rule, cases,
                         10) == "");
  CHECK(warmup_diagnosis(ramp([](long long k, long long w) { return double(k / w); }), rule, cases, 10) ==
        "the warm-up at world 2 linear, warmup_steps 10 (base_lr 0.02, target 0.04; the same shape in all 8 "
        "wrong "
        "warm-ups): it starts at base_lr (0.02), stays there until step warmup_steps (10): the progress "
        "stays 0 "
        "during the warm-up; one possibility is an integer division (step / warmup_steps in integers is 0 "
        "until "
        "the end of the warm-up).");
  // Skipped only under sqrt: 4 of the 8 warm-ups that climb, each the same.
  const LearningRate sqrt_skips = [](double b, int n, Scaling s, long long k, long long w) {
    return reference_lr(b, n, s, s == Scaling::sqrt ? w : k, w);
  };
  CHECK(has(
      warmup_diagnosis(sqrt_skips, rule, cases, 10),
      "world 2 sqrt, warmup_steps 10 (base_lr 0.02, target 0.02828; the same shape in all 4 wrong warm-ups): "
      "the rate is the target from step 0: the warm-up is skipped."));
}

TEST_CASE("NaN at one short warm-up length is a division by zero there") {
  CHECK(nan_diagnosis({}, "") == "");
  CHECK(
      nan_diagnosis({0, 0, 0}, "world 2 linear warmup 0 at step 0") ==
      "NaN or inf in 3 cases (e.g. world 2 linear warmup 0 at step 0), all with warmup_steps 0 and none with "
      "another length: a division by a denominator that is 0 when warmup_steps is 0; one possibility is step "
      "/ "
      "warmup_steps computed before the target is returned (the test step > warmup_steps where step >= "
      "warmup_steps belongs).");
  CHECK(has(nan_diagnosis({1, 1}, "x"), "0 when warmup_steps is 1; one possibility is warmup_steps - 1"));
  CHECK(nan_diagnosis({0, 10}, "x") ==
        "NaN or inf in 2 cases (e.g. x); one possibility is a division by zero.");
}
