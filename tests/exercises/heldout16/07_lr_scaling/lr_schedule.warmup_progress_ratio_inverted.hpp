// mistake: the warm-up fraction is upside down, warmup_steps / step instead of step / warmup_steps (infinite at step 0, above 1 throughout the warm-up)
  // ==== BEGIN EXERCISE: warm-up ====
  const double target = scaled_lr(base_lr, world_size, s);
  if (step >= warmup_steps) return target;
  const double progress = static_cast<double>(warmup_steps) / static_cast<double>(step);
  return base_lr + (target - base_lr) * progress;
  // ==== END EXERCISE ====
