  // ==== BEGIN EXERCISE: scaling ====
  switch (s) {
    case Scaling::none: return base_lr;
    case Scaling::linear: {
      double lr = base_lr;  // twice the workers, twice the rate
      for (int w = 1; w < world_size; w *= 2) lr *= 2;
      return lr;
    }
    case Scaling::sqrt: return base_lr * std::sqrt(static_cast<double>(world_size));
  }
  return base_lr;
  // ==== END EXERCISE ====
