// The check of exercise 07 (lesson 07 has no --check of its own: its schedule is two small
// functions). lesson07::scaled_lr and lesson07::learning_rate against the schedule written out
// here a second time, independently: world sizes 1-8, every scaling rule, warm-up of 0, 1 and
// 10 steps, steps 0-30. Built twice, like a lesson: check_07 (solutions/) and check_07_mine.
//   check_07 --check        prints one row per case, the first wrong steps, exits 1 if any
// Rates are compared as floats (float's relative tolerance, check.hpp): a learning rate is used
// in float arithmetic, so a schedule computed in float is as right as one computed in double.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "lr_schedule.hpp"
#include "ringlab/check/check.hpp"

namespace {
using lesson07::Scaling;

double reference_lr(double base, int n, Scaling s, long long step, long long warmup) {
  const double target = s == Scaling::none     ? base
                        : s == Scaling::linear ? base * n
                                               : base * std::sqrt(double(n));
  if (step >= warmup) return target;
  return base + (target - base) * double(step) / double(warmup);
}
}  // namespace

int main() {
  const double base = 0.02;
  const int steps = 31;
  long long total = 0, wrong_in_warmup = 0, wrong_after = 0;
  std::printf("%-6s %-7s %7s %7s\n", "world", "scaling", "warmup", "#wrong");
  for (int n : {1, 2, 3, 4, 8})
    for (Scaling s : {Scaling::none, Scaling::linear, Scaling::sqrt})
      for (long long warmup : {0, 1, 10}) {
        std::vector<float> expected(steps), actual(steps);
        for (int step = 0; step < steps; ++step) {
          expected[step] = static_cast<float>(reference_lr(base, n, s, step, warmup));
          actual[step] = static_cast<float>(lesson07::learning_rate(base, n, s, step, warmup));
        }
        const auto result =
            ringlab::compare<float>(ringlab::View<float>(expected), ringlab::View<float>(actual), 1);
        const double tol = ringlab::float_tolerance(ringlab::DType::f32, 1);
        for (int step = 0; step < steps; ++step)  // where the wrong ones are: in the warm-up or after
          if (!(std::fabs(double(actual[step]) - expected[step]) <=
                tol * std::fmax(1.0, std::fabs(expected[step]))))
            ++(step < warmup ? wrong_in_warmup : wrong_after);
        total += result.wrong;
        std::printf("%-6d %-7s %7lld %7lld\n", n, lesson07::scaling_name(s), warmup, result.wrong);
        if (result.wrong)  // index = the step
          std::fprintf(stderr, "error: world %d %s warmup %lld, by step: %s\n", n, lesson07::scaling_name(s),
                       warmup, ringlab::describe(result).c_str());
      }
  if (total && !wrong_after)
    std::printf(
        "diagnosis: wrong only during the warm-up (steps before warmup_steps): the rate must climb from "
        "base_lr at step 0 to the target at step warmup_steps\n");
  if (total && !wrong_in_warmup)
    std::printf(
        "diagnosis: right during the warm-up, wrong after it: from step warmup_steps on the rate is the "
        "scaled target, scaled_lr(...)\n");
  if (total) std::printf("FAILED: %lld wrong rates\n", total);
  return total ? 1 : 0;
}
