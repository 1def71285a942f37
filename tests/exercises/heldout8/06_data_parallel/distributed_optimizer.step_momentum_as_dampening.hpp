  // ==== BEGIN EXERCISE: step ====
  average_gradients(comm, grad);
  sgd_momentum_update(params, grad, velocity, lr, 1.0f - momentum);
  // ==== END EXERCISE ====
