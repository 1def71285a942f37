// mistake: forgetting warm-up — the scaled rate from the very first step.
// expect: 1
// expect-message: diagnosis: wrong only during the warm-up
// expect-message: FAIL +1 rank +--check --data synthetic --epochs 1: wrong results
// expect-message: 2 +linear +10 +10
// expect-message: world 2 linear warmup 10, by step: 10 wrong; first: \[0\] expected 0.02 got 0.04; \[1\] expected 0.022 got 0.04
// expect-message: wrong only during the warm-up
// expect-message: diagnosis: world 2 linear warmup 10: 10 wrong values, e.g. \[0\] expected 0.02 got 0.04; every wrong value equals the right value of step 10: .*the warm-up is skipped
// ==== BEGIN EXERCISE: warm-up ====
  (void)step, (void)warmup_steps;
  return scaled_lr(base_lr, world_size, s);  // the bug: no warm-up
// ==== END EXERCISE ====
