  // ==== BEGIN EXERCISE: warm-up ====
  const double target = scaled_lr(base_lr, world_size, s);
  if (step >= warmup_steps) return target;
  const double progress = static_cast<double>(step) / static_cast<double>(warmup_steps);
  const int workers_now = 1 + static_cast<int>((world_size - 1) * progress);  // add workers gradually
  return scaled_lr(base_lr, workers_now, s);
  // ==== END EXERCISE ====
