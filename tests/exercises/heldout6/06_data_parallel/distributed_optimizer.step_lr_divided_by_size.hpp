  // ==== BEGIN EXERCISE: step ====
  average_gradients(comm, grad);
  sgd_momentum_update(params, grad, velocity, lr / static_cast<float>(comm.size()), momentum);
  // ==== END EXERCISE ====
