// Lesson 07's --check, part 1: the schedule (lr_schedule.hpp) against the schedule written out
// here a second time, independently: world sizes 1-8, every scaling rule, warm-up of 0, 1 and
// 10 steps, steps 0-30. One row per case, the number of wrong steps, and where they are (in the
// warm-up or after it). Part 2, the replicas still bit-identical after training, is in main.cpp.
// Rates are compared as floats (float's relative tolerance, check.hpp): a learning rate is used
// in float arithmetic, so a schedule computed in float is as right as one computed in double.
//
// The diagnosis describes the SHAPE of the learner's two functions (rate_shape.hpp: how
// scaled_lr grows with base_lr and n, how the warm-up climbs, where NaN appears) and names the
// part that differs. When no shape differs, the wrong rates of the case with the most of them
// are related to the right ones (ringlab/check/value_relation.hpp).
#pragma once
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "lr_schedule.hpp"
#include "rate_shape.hpp"
#include "ringlab/check/check.hpp"
#include "ringlab/check/value_relation.hpp"

namespace lesson07 {

inline double reference_lr(double base, int n, Scaling s, long long step, long long warmup) {
  const double target = s == Scaling::none     ? base
                        : s == Scaling::linear ? base * n
                                               : base * std::sqrt(double(n));
  if (step >= warmup) return target;
  return base + (target - base) * double(step) / double(warmup);
}

// ---- when no shape differs: the wrong rates related to the right ones ----------------------
// One case's wrong rates, related to the right ones: the step before's right rate, and every
// step's right rate (is a wrong one the rate of another step?).
inline std::string explain_rates(const std::string& where, const std::vector<float>& expected,
                                 const std::vector<float>& actual, int n, long long warmup, double tol) {
  std::vector<ringlab::ValueEvidence> evidence;
  std::vector<long long> index;
  for (std::size_t step = 0; step < expected.size(); ++step) {
    if (std::fabs(double(actual[step]) - expected[step]) <= tol * std::fmax(1.0, std::fabs(expected[step])))
      continue;
    ringlab::ValueEvidence e;
    e.expected = expected[step];
    e.got = actual[step];
    if (step > 0) e.before = expected[step - 1];
    e.elsewhere.assign(expected.begin(), expected.end());
    evidence.push_back(e);
    index.push_back(static_cast<long long>(step));
  }
  // The other step whose rate every wrong one equals, if there is one: after the warm-up, the target.
  int target_step = -1;
  for (const auto& f : ringlab::relate(evidence, n))
    if (f.relation == ringlab::Relation::elsewhere) target_step = f.place;
  using ringlab::Relation;
  std::vector<ringlab::CauseOf> causes{
      {Relation::step_before,
       "the rate is one step late: the step is counted from 1, or the warm-up fraction uses "
       "step - 1"},
      {Relation::zero,
       "an integer division (step / warmup_steps in integers is 0 until the end of the warm-up)"},
      {Relation::not_finite, "a division by zero (warmup_steps may be 0)"}};
  if (target_step >= warmup)
    causes.push_back({Relation::elsewhere, "the rate is already the scaled target: the warm-up is skipped"});
  return ringlab::explain(where, evidence, n, causes, "step", index);
}

// Every diagnosis of the learner's two functions, one line each; `fallback`: what to say when
// no shape differs.
inline std::vector<std::string> diagnose(const ScaledLr& scaled, const LearningRate& lr,
                                         const std::vector<Case>& cases,
                                         const std::vector<long long>& warmups_with_nan,
                                         const std::string& nan_example, const std::string& fallback) {
  std::vector<std::string> lines = scaling_diagnoses(scaled);
  // The rate after the warm-up must be scaled_lr's, whatever scaled_lr does. Called with base_lr
  // and the world size in each other's place, it is scaled_lr(n, int(base_lr)) for every rule
  // (the int parameter truncates 0.02 to 0): said once, as that, since the per-rule shapes of
  // such a rate (n for none, 0 for the others) point nowhere.
  bool swapped = true, right = true;
  for (Scaling s : {Scaling::none, Scaling::linear, Scaling::sqrt})
    for (double b : {0.02, 0.5, 3.0})
      for (int n : {1, 2, 3, 4, 8}) {
        const double got = lr(b, n, s, 15, 10);
        swapped = swapped && close(got, scaled(double(n), static_cast<int>(b), s));
        right = right && close(got, scaled(b, n, s));
      }
  if (swapped && !right) {
    lines.push_back("the rate after the warm-up is scaled_lr(n, base_lr, rule) for every rule, at base_lr 0.02, 0.5 "
                    "and 3 and n = 1, 2, 3, 4, 8: scaled_lr was given the world size where base_lr belongs and base_lr "
                    "where the world size belongs (an int: base_lr 0.02 arrives as 0) — its arguments are in each "
                    "other's place; it takes (base_lr, world_size, s).");
    if (auto line = nan_diagnosis(warmups_with_nan, nan_example); !line.empty()) lines.push_back(line);
    return lines;
  }
  for (Scaling s : {Scaling::none, Scaling::linear, Scaling::sqrt}) {
    auto after = [&](double b, int n) { return lr(b, n, s, 15, 10); };
    bool same = true;
    for (int n : {1, 2, 3, 4, 8}) same = same && close(after(0.02, n), scaled(0.02, n, s));
    const std::string name = scaling_name(s);
    const std::string what =
        "the rate after the warm-up, with " + name + ", is not scaled_lr(base_lr, n, " + name + "): it";
    if (auto line = same ? "" : scaling_diagnosis(what, after, s); !line.empty()) lines.push_back(line);
  }
  if (auto line = warmup_diagnosis(lr, scaled, cases, 10); !line.empty()) lines.push_back(line);
  if (auto line = nan_diagnosis(warmups_with_nan, nan_example); !line.empty()) lines.push_back(line);
  if (lines.empty()) lines.push_back(fallback);
  return lines;
}

// True when every rate is right. Prints the table (only where `print`).
inline bool check_schedule(bool print) {
  const double base = 0.02;
  const int steps = 31;
  long long total = 0, wrong_in_warmup = 0, wrong_after = 0, most = 0;
  std::string explanation, nan_example;  // of the case with the most wrong rates; of one with NaN
  std::vector<Case> warmup_10;           // the cases with 10 steps of warm-up: the warm-up's shape
  std::vector<long long> warmups_with_nan;
  if (print) std::printf("%-6s %-7s %7s %7s\n", "world", "scaling", "warmup", "#wrong");
  for (int n : {1, 2, 3, 4, 8})
    for (Scaling s : {Scaling::none, Scaling::linear, Scaling::sqrt})
      for (long long warmup : {0, 1, 10}) {
        std::vector<float> expected(steps), actual(steps);
        for (int step = 0; step < steps; ++step) {
          expected[step] = static_cast<float>(reference_lr(base, n, s, step, warmup));
          actual[step] = static_cast<float>(learning_rate(base, n, s, step, warmup));
        }
        const auto result =
            ringlab::compare<float>(ringlab::View<float>(expected), ringlab::View<float>(actual), 1);
        const double tol = ringlab::float_tolerance(ringlab::DType::f32, 1);
        const std::string where =
            "world " + std::to_string(n) + " " + scaling_name(s) + " warmup " + std::to_string(warmup);
        int first_nan = -1;
        for (int step = 0; step < steps; ++step) {  // where the wrong ones are: in the warm-up or after
          if (!(std::fabs(double(actual[step]) - expected[step]) <=
                tol * std::fmax(1.0, std::fabs(expected[step]))))
            ++(step < warmup ? wrong_in_warmup : wrong_after);
          if (first_nan < 0 && !std::isfinite(actual[step])) first_nan = step;
        }
        if (first_nan >= 0 && warmups_with_nan.empty())
          nan_example = where + " at step " + std::to_string(first_nan);
        if (first_nan >= 0) warmups_with_nan.push_back(warmup);
        total += result.wrong;
        if (warmup == 10) warmup_10.push_back({n, s, result.wrong});
        if (!print) continue;
        if (result.wrong > most) {
          most = result.wrong;
          explanation = explain_rates(where, expected, actual, n, warmup, tol);
        }
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
  if (print && total)
    for (const auto& line :
         diagnose(scaled_lr, learning_rate, warmup_10, warmups_with_nan, nan_example, explanation))
      std::printf("diagnosis: %s\n", line.c_str());
  if (print && total) std::printf("FAILED: %lld wrong rates\n", total);
  std::fflush(stdout);
  return total == 0;
}

}  // namespace lesson07
