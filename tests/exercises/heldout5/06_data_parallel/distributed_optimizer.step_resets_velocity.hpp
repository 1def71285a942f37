  // ==== BEGIN EXERCISE: step ====
  ringlab::fill(velocity, 0.0f);  // a clean velocity for this step
  average_gradients(comm, grad);
  sgd_momentum_update(params, grad, velocity, lr, momentum);
  // ==== END EXERCISE ====
