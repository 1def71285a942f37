// mistake: the step multiplies the averaged gradient by lr (ringlab::scale(grad, lr)) and then takes the optimizer step with lr again: lr counted twice
  // ==== BEGIN EXERCISE: step ====
  average_gradients(comm, grad);
  ringlab::scale(grad, lr);  // the step is lr * gradient
  sgd_momentum_update(params, grad, velocity, lr, momentum);
  // ==== END EXERCISE ====
