  // ==== BEGIN EXERCISE: step ====
  average_gradients(comm, grad);
  if (comm.rank() == 0) sgd_momentum_update(params, grad, velocity, lr, momentum);
  // ==== END EXERCISE ====
