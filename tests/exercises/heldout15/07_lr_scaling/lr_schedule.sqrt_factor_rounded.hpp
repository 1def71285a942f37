// mistake: the sqrt rule's factor is rounded to the nearest whole number (std::round(std::sqrt(n))), as if it had to count whole workers
  // ==== BEGIN EXERCISE: scaling ====
  switch (s) {
    case Scaling::none: return base_lr;
    case Scaling::linear: return base_lr * world_size;
    case Scaling::sqrt: return base_lr * std::round(std::sqrt(static_cast<double>(world_size)));
  }
  return base_lr;
  // ==== END EXERCISE ====
