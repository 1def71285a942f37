// mistake: TensorFlow's momentum form: the gradient is scaled by lr first and the update runs with lr = 1, so velocity (and the returned grad) come out lr times too large
  // ==== BEGIN EXERCISE: step ====
  average_gradients(comm, grad);
  ringlab::scale(grad, lr);
  sgd_momentum_update(params, grad, velocity, 1.0f, momentum);
  // ==== END EXERCISE ====
