  // ==== BEGIN EXERCISE: step ====
  average_gradients(comm, grad);
  ringlab::scale(velocity, momentum);
  sgd_momentum_update(params, grad, velocity, lr, momentum);
  // ==== END EXERCISE ====
