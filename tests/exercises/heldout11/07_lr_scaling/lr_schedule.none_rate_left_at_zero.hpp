  // ==== BEGIN EXERCISE: scaling ====
  double lr = 0.0;
  switch (s) {
    case Scaling::none: break;
    case Scaling::linear: lr = base_lr * world_size; break;
    case Scaling::sqrt: lr = base_lr * std::sqrt(static_cast<double>(world_size)); break;
  }
  return lr;
  // ==== END EXERCISE ====
