// mistake: the warm-up fraction divides by warmup_steps + 1, so the climb never reaches the target before the jump at step warmup_steps
  // ==== BEGIN EXERCISE: warm-up ====
  const double target = scaled_lr(base_lr, world_size, s);
  if (step >= warmup_steps) return target;
  const double progress = static_cast<double>(step) / static_cast<double>(warmup_steps + 1);
  return base_lr + (target - base_lr) * progress;
  // ==== END EXERCISE ====
