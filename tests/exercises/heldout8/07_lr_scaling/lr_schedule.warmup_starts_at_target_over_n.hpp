  // ==== BEGIN EXERCISE: warm-up ====
  const double target = scaled_lr(base_lr, world_size, s);
  if (step >= warmup_steps) return target;
  const double start = target / world_size;  // the one-worker rate
  const double progress = static_cast<double>(step) / static_cast<double>(warmup_steps);
  return start + (target - start) * progress;
  // ==== END EXERCISE ====
