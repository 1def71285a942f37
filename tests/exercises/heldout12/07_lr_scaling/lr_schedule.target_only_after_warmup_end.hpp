// mistake: the target is returned only for step > warmup_steps, so warmup_steps = 0 divides 0 by 0 (NaN) at step 0
  // ==== BEGIN EXERCISE: warm-up ====
  const double target = scaled_lr(base_lr, world_size, s);
  if (step > warmup_steps) return target;
  const double progress = static_cast<double>(step) / static_cast<double>(warmup_steps);
  return base_lr + (target - base_lr) * progress;
  // ==== END EXERCISE ====
