// mistake: averaging without stepping — the distributed step averages the gradients but never
// calls the optimizer, so the replicas agree (bit for bit) and the averaged gradient is right,
// yet the model never learns. Only the weights-after-a-step check catches it.
// expect: 1
// expect-message: weights and velocity after the step .* WRONG
// expect-message: weights after step 0 vs one process taking it: [0-9]+ wrong
// expect-message: diagnosis: rank 0, step 0, how far each weight moved: [0-9]+ wrong values, .*every wrong value is 0: the optimizer step is missing
// ==== BEGIN EXERCISE: step ====
  average_gradients(comm, grad);  // the bug: no sgd_momentum_update(params, grad, velocity, lr, momentum)
  (void)params, (void)velocity, (void)lr, (void)momentum;
// ==== END EXERCISE ====
