// mistake: warm-up progress counts the steps of all workers (step * world_size / warmup_steps), so with several workers the rate overshoots the target before step warmup_steps
  // ==== BEGIN EXERCISE: warm-up ====
  const double target = scaled_lr(base_lr, world_size, s);
  if (step >= warmup_steps) return target;
  const double progress = static_cast<double>(step * world_size) / static_cast<double>(warmup_steps);
  return base_lr + (target - base_lr) * progress;
  // ==== END EXERCISE ====
