// mistake: the momentum left out of the update — 0 passed where momentum belongs, so every step
// moves as from rest (step 0 is right, step 1 is not).
// expect: 1
// expect-message: every one moved as a step from velocity 0 moves it .*the velocity did not carry over from the step before
// ==== BEGIN EXERCISE: step ====
  average_gradients(comm, grad);
  sgd_momentum_update(params, grad, velocity, lr, 0.0f);  // the bug: the momentum is an argument
// ==== END EXERCISE ====
