// mistake: the update is lesson 04's server loop, params[i] -= lr * grad[i] (plain SGD, a host loop), instead of sgd_momentum_update: momentum never acts (the stub's (void) line for velocity and momentum kept)
  // ==== BEGIN EXERCISE: step ====
  average_gradients(comm, grad);
  for (std::size_t i = 0; i < params.size(); ++i) params[i] -= lr * grad[i];
  (void)velocity, (void)momentum;
  // ==== END EXERCISE ====
