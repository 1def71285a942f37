// held-out mistake (README.md): only the holes that differ from the solution;
// scripts/ringlab-exercise fill SOLUTION THIS OUT makes the whole header.
// ==== BEGIN EXERCISE: scaling ====
  switch (s) {
    case Scaling::none: return base_lr;
    case Scaling::linear: return base_lr * world_size;
    case Scaling::sqrt: return base_lr * static_cast<int>(std::sqrt(static_cast<double>(world_size)));
  }
  return base_lr;
// ==== END EXERCISE ====
