// Lesson 07's schedule: the scaled target for none/linear/sqrt, and the linear warm-up ramp.
#include <cmath>

#include "catch.hpp"
#include "lr_schedule.hpp"

using lesson07::learning_rate;
using lesson07::scaled_lr;
using lesson07::Scaling;

TEST_CASE("none keeps the one-worker rate at every size") {
  for (int n : {1, 2, 4, 8}) CHECK(scaled_lr(0.1, n, Scaling::none) == Approx(0.1));
}

TEST_CASE("linear scaling multiplies the rate by the number of workers") {
  CHECK(scaled_lr(0.1, 1, Scaling::linear) == Approx(0.1));
  CHECK(scaled_lr(0.1, 2, Scaling::linear) == Approx(0.2));
  CHECK(scaled_lr(0.1, 4, Scaling::linear) == Approx(0.4));
  CHECK(scaled_lr(0.025, 8, Scaling::linear) == Approx(0.2));
}

TEST_CASE("sqrt scaling multiplies the rate by the square root of the number of workers") {
  CHECK(scaled_lr(0.1, 1, Scaling::sqrt) == Approx(0.1));
  CHECK(scaled_lr(0.1, 4, Scaling::sqrt) == Approx(0.2));
  CHECK(scaled_lr(0.1, 2, Scaling::sqrt) == Approx(0.1 * std::sqrt(2.0)));
}

TEST_CASE("warm-up climbs linearly from the base rate to the scaled rate, then stays there") {
  // 4 workers, linear: from 0.1 to 0.4 over 10 steps, i.e. +0.03 per step.
  CHECK(learning_rate(0.1, 4, Scaling::linear, 0, 10) == Approx(0.1));
  CHECK(learning_rate(0.1, 4, Scaling::linear, 1, 10) == Approx(0.13));
  CHECK(learning_rate(0.1, 4, Scaling::linear, 5, 10) == Approx(0.25));
  CHECK(learning_rate(0.1, 4, Scaling::linear, 9, 10) == Approx(0.37));
  CHECK(learning_rate(0.1, 4, Scaling::linear, 10, 10) == Approx(0.4));
  CHECK(learning_rate(0.1, 4, Scaling::linear, 1000, 10) == Approx(0.4));
  // Strictly increasing through the ramp.
  for (int s = 1; s <= 10; ++s)
    CHECK(learning_rate(0.1, 4, Scaling::linear, s, 10) > learning_rate(0.1, 4, Scaling::linear, s - 1, 10));
}

TEST_CASE("sqrt warm-up ends at the sqrt-scaled rate") {
  CHECK(learning_rate(0.1, 4, Scaling::sqrt, 0, 8) == Approx(0.1));
  CHECK(learning_rate(0.1, 4, Scaling::sqrt, 4, 8) == Approx(0.15));
  CHECK(learning_rate(0.1, 4, Scaling::sqrt, 8, 8) == Approx(0.2));
}

TEST_CASE("without warm-up the scaled rate applies from the first step") {
  CHECK(learning_rate(0.1, 4, Scaling::linear, 0, 0) == Approx(0.4));
  CHECK(learning_rate(0.1, 2, Scaling::none, 0, 0) == Approx(0.1));
  CHECK(learning_rate(0.1, 2, Scaling::none, 3, 10) == Approx(0.1));  // nothing to ramp
}

TEST_CASE("scaling names parse and print back; anything else is refused") {
  for (auto s : {Scaling::none, Scaling::linear, Scaling::sqrt})
    CHECK(lesson07::parse_scaling(lesson07::scaling_name(s)) == s);
  CHECK_FALSE(lesson07::parse_scaling("quadratic"));
  CHECK_FALSE(lesson07::parse_scaling("Linear"));
}
