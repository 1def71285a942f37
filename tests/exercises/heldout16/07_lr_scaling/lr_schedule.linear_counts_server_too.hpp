// mistake: the linear rule multiplies by world_size + 1 (counting a parameter server as in lesson 04) instead of world_size, so even one worker gets twice base_lr
  // ==== BEGIN EXERCISE: scaling ====
  switch (s) {
    case Scaling::none: return base_lr;
    case Scaling::linear: return base_lr * (world_size + 1);
    case Scaling::sqrt: return base_lr * std::sqrt(static_cast<double>(world_size));
  }
  return base_lr;
  // ==== END EXERCISE ====
