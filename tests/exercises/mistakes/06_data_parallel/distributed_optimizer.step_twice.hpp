// mistake: the optimizer step taken on the averaged gradient twice over — first the plain
// step, then again after averaging; the replicas agree, every step is off.
// expect: 1
// expect-message: averaged gradient .* ok; weights and velocity after the step .* WRONG
// expect-message: diagnosis: rank 0, step 0, how far each weight moved: .*the right value plus one term again .*\(and is 2.9 times the right value\): the optimizer step is taken twice
// ==== BEGIN EXERCISE: step ====
  average_gradients(comm, grad);
  sgd_momentum_update(params, grad, velocity, lr, momentum);
  sgd_momentum_update(params, grad, velocity, lr, momentum);  // the bug: a second step
// ==== END EXERCISE ====
