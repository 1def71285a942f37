// mistake: scaling the velocity by the momentum before the update, which does it again — the old
// velocity is carried over times momentum squared.
// expect: 1
// expect-message: step 1, how far each weight moved: .*carried over times 0.81 where the momentum \(0.9\) belongs — momentum squared: the momentum was applied twice
// expect-no-message: must be handed
  // ==== BEGIN EXERCISE: step ====
  average_gradients(comm, grad);
  ringlab::scale(velocity, momentum);  // the bug: sgd_momentum_update already does this
  sgd_momentum_update(params, grad, velocity, lr, momentum);
  // ==== END EXERCISE ====
