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
  switch (s) {
    case Scaling::none: return base_lr;
    case Scaling::linear: return base_lr * world_size;
    case Scaling::sqrt: return base_lr * std::sqrt(static_cast<double>(world_size));
  }
  return base_lr;
  // ==== END EXERCISE ====
}

// ---- the rate at optimizer step `step` (0, 1, 2, ...) ----------------------------------
// During warm-up (step < warmup_steps) the rate climbs linearly from base_lr, reached at step
// 0, towards the target, reached at step warmup_steps; after that it is the target.
inline double learning_rate(double base_lr, int world_size, Scaling s, long long step,
                            long long warmup_steps) {
  // ==== BEGIN EXERCISE: warm-up ====
  static const double target = scaled_lr(base_lr, world_size, s);  // computed once, not every step
  if (step >= warmup_steps) return target;
  const double progress = static_cast<double>(step) / static_cast<double>(warmup_steps);
  return base_lr + (target - base_lr) * progress;
  // ==== END EXERCISE ====
}

}  // namespace lesson07
