// mistake: the whole step, optimizer update included, is guarded by comm.size() > 1 ("nothing to distribute"), so one rank never updates its parameters
  // ==== BEGIN EXERCISE: step ====
  if (comm.size() > 1) {
    average_gradients(comm, grad);
    sgd_momentum_update(params, grad, velocity, lr, momentum);
  }
  // ==== END EXERCISE ====
