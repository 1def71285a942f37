// mistake: scaled_lr called with the world size and base_lr swapped — in the warm-up's target.
// It compiles (an int converts to a double and back): base_lr 0.02 arrives as world size 0.
// expect: 1
// expect-message: diagnosis: the rate after the warm-up is scaled_lr.n, base_lr, rule. for every rule
// expect-message: its arguments are in each other's place
// expect-message: which hole: your warm-up hole fails
// ==== BEGIN EXERCISE: warm-up ====
  const double target = scaled_lr(world_size, base_lr, s);
  if (step >= warmup_steps) return target;
  const double progress = static_cast<double>(step) / static_cast<double>(warmup_steps);
  return base_lr + (target - base_lr) * progress;
// ==== END EXERCISE ====
