// mistake: passing 1 - momentum as the momentum — the velocity keeps a tenth of itself where it
// should keep nine tenths; step 0 starts from rest and is right, step 1 is not.
// expect: 1
// expect-message: which hole: your step hole fails with the reference average
// expect-message: step 1, how far each weight moved: .*the velocity was carried over times 0.1 where the momentum \(0.9\) belongs — 1 - momentum was passed as the momentum
  // ==== BEGIN EXERCISE: step ====
  average_gradients(comm, grad);
  sgd_momentum_update(params, grad, velocity, lr, 1.0f - momentum);  // the bug: 1 - momentum
  // ==== END EXERCISE ====
