// mistake: parameter-server thinking: only rank 0 takes the optimizer step and broadcasts params, so the other ranks' velocity never moves
  // ==== BEGIN EXERCISE: step ====
  average_gradients(comm, grad);
  if (comm.rank() == 0) sgd_momentum_update(params, grad, velocity, lr, momentum);
  broadcast(comm, params);
  // ==== END EXERCISE ====
