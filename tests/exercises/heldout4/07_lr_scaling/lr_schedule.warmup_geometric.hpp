// held-out mistake (README.md): only the holes that differ from the solution;
// scripts/ringlab-exercise fill SOLUTION THIS OUT makes the whole header.
// ==== BEGIN EXERCISE: warm-up ====
  const double target = scaled_lr(base_lr, world_size, s);
  if (step >= warmup_steps) return target;
  const double progress = static_cast<double>(step) / static_cast<double>(warmup_steps);
  return base_lr * std::pow(target / base_lr, progress);
// ==== END EXERCISE ====
