// mistake: the warm-up ramps from 0 (target * progress) and is clamped from below at base_lr with fmax, instead of climbing from base_lr in equal steps
  // ==== BEGIN EXERCISE: warm-up ====
  const double target = scaled_lr(base_lr, world_size, s);
  if (step >= warmup_steps) return target;
  const double progress = static_cast<double>(step) / static_cast<double>(warmup_steps);
  return std::fmax(base_lr, target * progress);  // never below the one-worker rate
  // ==== END EXERCISE ====
