// mistake: 'climbs in equal steps' read as a staircase: the progress is rounded down to quarters of the warm-up
  // ==== BEGIN EXERCISE: warm-up ====
  const double target = scaled_lr(base_lr, world_size, s);
  if (step >= warmup_steps) return target;
  const double progress = std::floor(4.0 * static_cast<double>(step) / static_cast<double>(warmup_steps)) / 4.0;
  return base_lr + (target - base_lr) * progress;
  // ==== END EXERCISE ====
