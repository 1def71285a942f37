// mistake: forgetting warm-up — the scaled rate from the very first step.
// expect: 1
// expect-message: diagnosis: wrong only during the warm-up
// expect-message: FAIL +1 rank +--check --data synthetic --epochs 1: wrong results
// expect-message: 2 +linear +10 +10
// expect-message: world 2 linear warmup 10, by step: 10 wrong; first: \[0\] expected 0.02 got 0.04; \[1\] expected 0.022 got 0.04
// expect-message: wrong only during the warm-up
// expect-message: diagnosis: the warm-up at world 2 linear, warmup_steps 10 \(base_lr 0.02, target 0.04; the same shape in all 8 wrong warm-ups\): the rate is the target from step 0: the warm-up is skipped\.
// ==== BEGIN EXERCISE: warm-up ====
  (void)step, (void)warmup_steps;
  return scaled_lr(base_lr, world_size, s);  // the bug: no warm-up
// ==== END EXERCISE ====
