  // ==== BEGIN EXERCISE: step ====
  sgd_momentum_update(params, grad, velocity, lr, momentum);
  average_gradients(comm, params);  // average the replicas: they end up the same
  // ==== END EXERCISE ====
