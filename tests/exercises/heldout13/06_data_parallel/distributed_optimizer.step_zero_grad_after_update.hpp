// mistake: a PyTorch habit, optimizer.zero_grad(): the gradient is zeroed after the update, though grad must hold the averaged gradient on return
  // ==== BEGIN EXERCISE: step ====
  average_gradients(comm, grad);
  sgd_momentum_update(params, grad, velocity, lr, momentum);
  ringlab::fill(grad, 0.0f);
  // ==== END EXERCISE ====
