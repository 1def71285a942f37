// mistake: params and grad are swapped in the update call, so the step moves the gradient by the parameters and leaves params as they were
  // ==== BEGIN EXERCISE: step ====
  average_gradients(comm, grad);
  sgd_momentum_update(grad, params, velocity, lr, momentum);
  // ==== END EXERCISE ====
