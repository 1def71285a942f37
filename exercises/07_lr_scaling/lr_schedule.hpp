// Lesson 07 — learning-rate scaling: the schedule.
//
// With a FIXED batch per worker, n workers make the global batch n times larger, and an epoch
// takes n times fewer steps. Keep the learning rate as it was and training covers less ground
// per epoch. The fixes, given the learning rate `lr` that works for one worker:
//
//   none     lr                  (the baseline: what goes wrong)
//   linear   lr * n              Goyal et al., "ImageNet in 1 hour" (2017): k times the batch,
//                                k times the learning rate; Horovod's `lr * hvd.size()`
//   sqrt     lr * sqrt(n)        keeps the variance of the update the same (Krizhevsky, 2014)
//
// A large learning rate right at the start, while the weights are random, can blow training
// up. Linear warm-up starts at the one-worker rate and climbs in equal steps to the scaled
// rate over the first `warmup_steps` steps, then stays there:
//
//   lr * n  |         ______________________
//           |       /
//           |     /
//           |   /
//   lr      | /
//           |
//           +---------+-------------------->  step
//           0         warmup_steps
#pragma once

#include <cmath>
#include <optional>
#include <string_view>

namespace lesson07 {

enum class Scaling { none, linear, sqrt };

inline const char* scaling_name(Scaling s) {
  switch (s) {
    case Scaling::none: return "none";
    case Scaling::linear: return "linear";
    case Scaling::sqrt: return "sqrt";
  }
  return "?";
}

inline std::optional<Scaling> parse_scaling(std::string_view name) {
  for (Scaling s : {Scaling::none, Scaling::linear, Scaling::sqrt})
    if (name == scaling_name(s)) return s;
  return std::nullopt;
}

// ---- the target rate for `world_size` workers -----------------------------------------
inline double scaled_lr(double base_lr, int world_size, Scaling s) {
  // ==== BEGIN EXERCISE: scaling ====
  // TODO(exercise): goal: the rate for `world_size` workers under rule `s`, one of the three
  // rows of the table at the top (base_lr is the rate that works for one worker). Every rule
  // gives base_lr for one worker, and `none` for any number. learning_rate below aims at it; the
  // check compares its rates with its own copy of the table (1, 2, 3, 4 and 8 workers, every
  // rule). In scope: base_lr, world_size, s. Stuck? ./ringlab hint 07
  (void)world_size, (void)s;  // TODO(exercise): delete this line
  return base_lr;             // TODO(exercise): replace
  // ==== END EXERCISE ====
}

// ---- the rate at optimizer step `step` (0, 1, 2, ...) ----------------------------------
// During warm-up (step < warmup_steps) the rate climbs linearly from base_lr, reached at step
// 0, towards the target, reached at step warmup_steps; after that it is the target.
inline double learning_rate(double base_lr, int world_size, Scaling s, long long step,
                            long long warmup_steps) {
  // ==== BEGIN EXERCISE: warm-up ====
  // TODO(exercise): the rate at `step`. Invariants the check tests, for every world size, rule
  // and warm-up length (0 included): step 0 gets base_lr; the rate climbs in equal steps and
  // would reach the target, scaled_lr(base_lr, world_size, s), exactly at step warmup_steps;
  // from there on it is the target. Stuck? ./ringlab hint 07
  (void)world_size, (void)s, (void)step, (void)warmup_steps;  // TODO(exercise): delete this line
  return base_lr;                                             // TODO(exercise): replace
  // ==== END EXERCISE ====
}

}  // namespace lesson07
