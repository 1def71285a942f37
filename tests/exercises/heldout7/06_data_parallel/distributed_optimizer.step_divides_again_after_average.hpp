  // ==== BEGIN EXERCISE: step ====
  average_gradients(comm, grad);
  ringlab::scale(grad, 1.0f / static_cast<float>(comm.size()));  // the sum -> the mean
  sgd_momentum_update(params, grad, velocity, lr, momentum);
  // ==== END EXERCISE ====
