  // ==== BEGIN EXERCISE: scaling ====
  switch (s) {
    case Scaling::none: return base_lr;
    case Scaling::linear: return base_lr * world_size;
  }
  return base_lr;
  // ==== END EXERCISE ====
