  // ==== BEGIN EXERCISE: scaling ====
  double lr = base_lr;
  switch (s) {
    case Scaling::none: lr = base_lr;
    case Scaling::linear: lr = base_lr * world_size; break;
    case Scaling::sqrt: lr = base_lr * std::sqrt(static_cast<double>(world_size)); break;
  }
  return lr;
  // ==== END EXERCISE ====
