// mistake: the warm-up always ramps the factor from 1 to world_size (Goyal's linear warm-up) instead of towards the rule's target, so for none and sqrt it climbs past the target and drops at warmup_steps
  // ==== BEGIN EXERCISE: warm-up ====
  const double target = scaled_lr(base_lr, world_size, s);
  if (step >= warmup_steps) return target;
  const double progress = static_cast<double>(step) / static_cast<double>(warmup_steps);
  return base_lr * (1.0 + (world_size - 1) * progress);
  // ==== END EXERCISE ====
