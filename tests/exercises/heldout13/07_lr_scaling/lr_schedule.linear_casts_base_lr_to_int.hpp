// mistake: in the linear rule the cast lands on the wrong operand, static_cast<int>(base_lr) * world_size, truncating a rate below 1 to 0
  // ==== BEGIN EXERCISE: scaling ====
  switch (s) {
    case Scaling::none: return base_lr;
    case Scaling::linear: return static_cast<int>(base_lr) * world_size;
    case Scaling::sqrt: return base_lr * std::sqrt(static_cast<double>(world_size));
  }
  return base_lr;
  // ==== END EXERCISE ====
