// mistake: the averaged gradient is applied once per rank (comm.size() optimizer steps), as a parameter server applies each worker's gradient
  // ==== BEGIN EXERCISE: step ====
  average_gradients(comm, grad);
  for (int k = 0; k < comm.size(); ++k)  // one update per rank's gradient, as a server applies them
    sgd_momentum_update(params, grad, velocity, lr, momentum);
  // ==== END EXERCISE ====
