// mistake: the sqrt rule takes the square root of world_size - 1 (the workers besides one), so one worker gets rate 0
  // ==== BEGIN EXERCISE: scaling ====
  switch (s) {
    case Scaling::none: return base_lr;
    case Scaling::linear: return base_lr * world_size;
    case Scaling::sqrt: return base_lr * std::sqrt(static_cast<double>(world_size - 1));
  }
  return base_lr;
  // ==== END EXERCISE ====
