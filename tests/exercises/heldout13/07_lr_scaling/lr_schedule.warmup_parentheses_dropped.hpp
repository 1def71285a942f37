// mistake: the parentheses around (target - base_lr) are dropped: base_lr + target - base_lr * progress starts at base_lr + target and falls towards target
  // ==== BEGIN EXERCISE: warm-up ====
  const double target = scaled_lr(base_lr, world_size, s);
  if (step >= warmup_steps) return target;
  const double progress = static_cast<double>(step) / static_cast<double>(warmup_steps);
  return base_lr + target - base_lr * progress;
  // ==== END EXERCISE ====
