// mistake: the warm-up ramps from 0 to the target and clamps at base_lr from below, instead of climbing from base_lr
  // ==== BEGIN EXERCISE: warm-up ====
  const double target = scaled_lr(base_lr, world_size, s);
  if (step >= warmup_steps) return target;
  const double progress = static_cast<double>(step) / static_cast<double>(warmup_steps);
  return std::fmax(base_lr, target * progress);
  // ==== END EXERCISE ====
