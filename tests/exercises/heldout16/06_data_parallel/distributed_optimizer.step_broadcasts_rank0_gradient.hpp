// mistake: the replicas are kept identical by broadcasting rank 0's gradient to everyone instead of averaging all ranks' gradients
  // ==== BEGIN EXERCISE: step ====
  broadcast(comm, grad);
  sgd_momentum_update(params, grad, velocity, lr, momentum);
  // ==== END EXERCISE ====
