// mistake: the linear rule returning how much the rate grows, base_lr * n - base_lr, where the
// scaled rate base_lr * n itself belongs.
// expect: 1
// expect-message: which hole: your scaling hole fails with the reference warm-up
// expect-message: every value is the linear rule at n - 1 \(base_lr \* n with n - 1 for n\), which is also base_lr \* n - base_lr — one possibility is that the ranks were counted one too few .*; another, that base_lr is taken off: the increase over base_lr
// expect-no-message: : the ranks counted one too few
// ==== BEGIN EXERCISE: scaling ====
  switch (s) {
    case Scaling::none: return base_lr;
    case Scaling::linear: return base_lr * world_size - base_lr;  // the bug: the increase alone
    case Scaling::sqrt: return base_lr * std::sqrt(static_cast<double>(world_size));
  }
  return base_lr;
// ==== END EXERCISE ====
