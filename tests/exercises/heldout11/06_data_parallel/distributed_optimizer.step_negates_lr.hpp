  // ==== BEGIN EXERCISE: step ====
  average_gradients(comm, grad);
  sgd_momentum_update(params, grad, velocity, -lr, momentum);  // descend: against the gradient
  // ==== END EXERCISE ====
