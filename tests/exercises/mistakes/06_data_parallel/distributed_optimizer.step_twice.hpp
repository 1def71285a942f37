// mistake: the optimizer step taken on the averaged gradient twice over — first the plain
// step, then again after averaging; the replicas agree, every step is off.
// expect: 1
// expect-message: averaged gradient .* ok; weights and velocity after the step .* WRONG
// expect-message: diagnosis: every weight moved 2.9 times as far as it should: the optimizer step is taken more than once
// ==== BEGIN EXERCISE: step ====
  average_gradients(comm, grad);
  sgd_momentum_update(params, grad, velocity, lr, momentum);
  sgd_momentum_update(params, grad, velocity, lr, momentum);  // the bug: a second step
// ==== END EXERCISE ====
