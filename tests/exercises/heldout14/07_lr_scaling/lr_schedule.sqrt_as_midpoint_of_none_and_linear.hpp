// mistake: the sqrt rule is taken as the midpoint between none and linear, base_lr * (1 + n) / 2, instead of base_lr * sqrt(n)
  // ==== BEGIN EXERCISE: scaling ====
  switch (s) {
    case Scaling::none: return base_lr;
    case Scaling::linear: return base_lr * world_size;
    case Scaling::sqrt: return base_lr * (1 + world_size) / 2.0;  // between none and linear
  }
  return base_lr;
  // ==== END EXERCISE ====
