// mistake: the momentum is multiplied by the world size (the linear scaling rule applied to the wrong hyperparameter)
  // ==== BEGIN EXERCISE: step ====
  average_gradients(comm, grad);
  sgd_momentum_update(params, grad, velocity, lr, momentum * static_cast<float>(comm.size()));
  // ==== END EXERCISE ====
