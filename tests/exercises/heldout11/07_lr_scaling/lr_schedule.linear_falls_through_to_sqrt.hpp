  // ==== BEGIN EXERCISE: scaling ====
  double lr = base_lr;
  switch (s) {
    case Scaling::none: break;
    case Scaling::linear: lr *= world_size;
    case Scaling::sqrt: lr *= std::sqrt(static_cast<double>(world_size)); break;
  }
  return lr;
  // ==== END EXERCISE ====
