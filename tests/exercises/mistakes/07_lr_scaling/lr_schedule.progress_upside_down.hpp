// mistake: the warm-up's progress upside down, warmup_steps / step where step / warmup_steps
// belongs — infinite at step 0, above 1 through the rest of the warm-up.
// expect: 1
// expect-message: which hole: your warm-up hole fails with the reference scaling
// expect-message: the rate is NaN or inf at step 0, and at every warm-up step k after it base_lr \+ \(target - base_lr\) \* warmup_steps / k, above the target: the progress is warmup_steps / step, upside down
// ==== BEGIN EXERCISE: warm-up ====
  const double target = scaled_lr(base_lr, world_size, s);
  if (step >= warmup_steps) return target;
  const double progress = static_cast<double>(warmup_steps) / static_cast<double>(step);  // the bug
  return base_lr + (target - base_lr) * progress;
// ==== END EXERCISE ====
