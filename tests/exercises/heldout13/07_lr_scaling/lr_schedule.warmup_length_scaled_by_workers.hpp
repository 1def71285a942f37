// mistake: the warm-up's progress is divided by warmup_steps * world_size ("more workers, longer warm-up") while the end test stays at warmup_steps, so the climb is n times too slow and jumps at the end
  // ==== BEGIN EXERCISE: warm-up ====
  const double target = scaled_lr(base_lr, world_size, s);
  if (step >= warmup_steps) return target;
  const double progress = static_cast<double>(step) / static_cast<double>(warmup_steps * world_size);
  return base_lr + (target - base_lr) * progress;
  // ==== END EXERCISE ====
