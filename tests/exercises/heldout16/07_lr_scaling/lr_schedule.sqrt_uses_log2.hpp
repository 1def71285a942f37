// mistake: the sqrt rule uses log2(world_size) (the binomial tree's round count) instead of sqrt(world_size): 0 for one worker, and right by coincidence only at 4 workers
  // ==== BEGIN EXERCISE: scaling ====
  switch (s) {
    case Scaling::none: return base_lr;
    case Scaling::linear: return base_lr * world_size;
    case Scaling::sqrt: return base_lr * std::log2(static_cast<double>(world_size));
  }
  return base_lr;
  // ==== END EXERCISE ====
