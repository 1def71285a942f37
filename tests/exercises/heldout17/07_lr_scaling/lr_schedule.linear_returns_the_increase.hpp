// mistake: the linear rule returns target - base_lr (the warm-up's climb, copied from the other hole) instead of the target
  // ==== BEGIN EXERCISE: scaling ====
  switch (s) {
    case Scaling::none: return base_lr;
    case Scaling::linear: return base_lr * world_size - base_lr;
    case Scaling::sqrt: return base_lr * std::sqrt(static_cast<double>(world_size));
  }
  return base_lr;
  // ==== END EXERCISE ====
