  // ==== BEGIN EXERCISE: step ====
  average_gradients(comm, grad);
  sgd_momentum_update(velocity, grad, params, lr, momentum);
  // ==== END EXERCISE ====
