  // ==== BEGIN EXERCISE: warm-up ====
  const double target = scaled_lr(base_lr, world_size, s);
  const double progress = static_cast<double>(step) / static_cast<double>(warmup_steps);
  if (progress >= 1.0) return target;
  return base_lr + (target - base_lr) * progress;
  // ==== END EXERCISE ====
