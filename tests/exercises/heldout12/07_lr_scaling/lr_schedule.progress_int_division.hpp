// mistake: the cast to double wraps the quotient, so step / warmup_steps is divided on long long integers first: 0 for every warm-up step, the rate stays at base_lr and then jumps
  // ==== BEGIN EXERCISE: warm-up ====
  const double target = scaled_lr(base_lr, world_size, s);
  if (step >= warmup_steps) return target;
  const double progress = static_cast<double>(step / warmup_steps);
  return base_lr + (target - base_lr) * progress;
  // ==== END EXERCISE ====
