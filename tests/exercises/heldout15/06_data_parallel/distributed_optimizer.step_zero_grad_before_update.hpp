// mistake: a PyTorch-style zero_grad (fill grad with 0) is placed between the averaging and the optimizer step, so the step sees a zero gradient
  // ==== BEGIN EXERCISE: step ====
  average_gradients(comm, grad);
  ringlab::fill(grad, 0.0f);
  sgd_momentum_update(params, grad, velocity, lr, momentum);
  // ==== END EXERCISE ====
