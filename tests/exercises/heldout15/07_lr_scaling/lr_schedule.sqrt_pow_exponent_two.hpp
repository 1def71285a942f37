// mistake: the sqrt rule is written with std::pow and exponent 2 (the square of the number of workers) where the exponent 0.5 belongs
  // ==== BEGIN EXERCISE: scaling ====
  switch (s) {
    case Scaling::none: return base_lr;
    case Scaling::linear: return base_lr * world_size;
    case Scaling::sqrt: return base_lr * std::pow(static_cast<double>(world_size), 2.0);
  }
  return base_lr;
  // ==== END EXERCISE ====
