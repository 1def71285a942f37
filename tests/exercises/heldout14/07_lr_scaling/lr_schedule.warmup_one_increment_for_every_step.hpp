// mistake: the warm-up adds a single increment, (target - base_lr) / warmup_steps, whatever the step (progress = 1 / warmup_steps, step left out)
  // ==== BEGIN EXERCISE: warm-up ====
  const double target = scaled_lr(base_lr, world_size, s);
  if (step >= warmup_steps) return target;
  const double progress = 1.0 / static_cast<double>(warmup_steps);
  return base_lr + (target - base_lr) * progress;
  // ==== END EXERCISE ====
