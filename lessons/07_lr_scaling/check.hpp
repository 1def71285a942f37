// Lesson 07's --check, part 1: the schedule (lr_schedule.hpp) against the schedule written out
// here a second time, independently: world sizes 1-8, every scaling rule, warm-up of 0, 1 and
// 10 steps, steps 0-30. One row per case, the number of wrong steps, and where they are (in the
// warm-up or after it). Part 2, the replicas still bit-identical after training, is in main.cpp.
// Rates are compared as floats (float's relative tolerance, check.hpp): a learning rate is used
// in float arithmetic, so a schedule computed in float is as right as one computed in double.
#pragma once
#include <cmath>
#include <cstdio>
#include <vector>

#include "lr_schedule.hpp"
#include "ringlab/check/check.hpp"

namespace lesson07 {

inline double reference_lr(double base, int n, Scaling s, long long step, long long warmup) {
  const double target = s == Scaling::none     ? base
                        : s == Scaling::linear ? base * n
                                               : base * std::sqrt(double(n));
  if (step >= warmup) return target;
  return base + (target - base) * double(step) / double(warmup);
}

// True when every rate is right. Prints the table (only where `print`).
inline bool check_schedule(bool print) {
  const double base = 0.02;
  const int steps = 31;
  long long total = 0, wrong_in_warmup = 0, wrong_after = 0;
  if (print) std::printf("%-6s %-7s %7s %7s\n", "world", "scaling", "warmup", "#wrong");
  for (int n : {1, 2, 3, 4, 8})
    for (Scaling s : {Scaling::none, Scaling::linear, Scaling::sqrt})
      for (long long warmup : {0, 1, 10}) {
        std::vector<float> expected(steps), actual(steps);
        for (int step = 0; step < steps; ++step) {
          expected[step] = static_cast<float>(reference_lr(base, n, s, step, warmup));
          actual[step] = static_cast<float>(learning_rate(base, n, s, step, warmup));
        }
        const auto result = ringlab::compare<float>(ringlab::View<float>(expected), ringlab::View<float>(actual), 1);
        const double tol = ringlab::float_tolerance(ringlab::DType::f32, 1);
        for (int step = 0; step < steps; ++step)  // where the wrong ones are: in the warm-up or after
          if (!(std::fabs(double(actual[step]) - expected[step]) <= tol * std::fmax(1.0, std::fabs(expected[step]))))
            ++(step < warmup ? wrong_in_warmup : wrong_after);
        total += result.wrong;
        if (!print) continue;
        std::printf("%-6d %-7s %7lld %7lld\n", n, scaling_name(s), warmup, result.wrong);
        if (result.wrong)  // index = the step
          std::fprintf(stderr, "error: world %d %s warmup %lld, by step: %s\n", n, scaling_name(s), warmup,
                       ringlab::describe(result).c_str());
      }
  if (print && total && !wrong_after)
    std::printf(
        "diagnosis: wrong only during the warm-up (steps before warmup_steps): the rate must climb from "
        "base_lr at step 0 to the target at step warmup_steps\n");
  if (print && total && !wrong_in_warmup)
    std::printf(
        "diagnosis: right during the warm-up, wrong after it: from step warmup_steps on the rate is the "
        "scaled target, scaled_lr(...)\n");
  if (print && total) std::printf("FAILED: %lld wrong rates\n", total);
  std::fflush(stdout);
  return total == 0;
}

}  // namespace lesson07
