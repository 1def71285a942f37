// mistake: the warm-up counts steps from 1 (progress = (step - 1) / warmup_steps), so step 0 lies below base_lr and the climb is one step late
  // ==== BEGIN EXERCISE: warm-up ====
  const double target = scaled_lr(base_lr, world_size, s);
  if (step >= warmup_steps) return target;
  const double progress = static_cast<double>(step - 1) / static_cast<double>(warmup_steps);
  return base_lr + (target - base_lr) * progress;
  // ==== END EXERCISE ====
