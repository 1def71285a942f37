// mistake: the square root is written as std::pow(world_size, 1 / 2), and 1 / 2 is integer 0, so sqrt scaling gives base_lr
  // ==== BEGIN EXERCISE: scaling ====
  switch (s) {
    case Scaling::none: return base_lr;
    case Scaling::linear: return base_lr * world_size;
    case Scaling::sqrt: return base_lr * std::pow(world_size, 1 / 2);
  }
  return base_lr;
  // ==== END EXERCISE ====
