// mistake: lr and momentum are passed to sgd_momentum_update in the wrong order
  // ==== BEGIN EXERCISE: step ====
  average_gradients(comm, grad);
  sgd_momentum_update(params, grad, velocity, momentum, lr);
  // ==== END EXERCISE ====
