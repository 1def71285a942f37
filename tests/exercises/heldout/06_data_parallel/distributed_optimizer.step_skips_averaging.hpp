// held-out mistake (README.md): only the holes that differ from the solution;
// scripts/ringlab-exercise fill SOLUTION THIS OUT makes the whole header.
// ==== BEGIN EXERCISE: step ====
  sgd_momentum_update(params, grad, velocity, lr, momentum);
  (void)comm;
// ==== END EXERCISE ====
