// mistake: the optimizer step runs before the gradients are averaged, so each rank steps with its own local gradient
  // ==== BEGIN EXERCISE: step ====
  sgd_momentum_update(params, grad, velocity, lr, momentum);
  average_gradients(comm, grad);
  // ==== END EXERCISE ====
