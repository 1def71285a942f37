// mistake: linear scaling multiplies by world_size - 1 (counting workers as in a parameter server), so one worker gets 0
  // ==== BEGIN EXERCISE: scaling ====
  switch (s) {
    case Scaling::none: return base_lr;
    case Scaling::linear: return base_lr * (world_size - 1);
    case Scaling::sqrt: return base_lr * std::sqrt(static_cast<double>(world_size));
  }
  return base_lr;
  // ==== END EXERCISE ====
