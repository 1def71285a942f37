// mistake: the gradient copied into the velocity before the update — which adds it again: from
// rest every weight moves 1 + momentum times as far.
// expect: 1
// expect-message: step 0, how far each weight moved: .*every wrong value is 1 \+ momentum = 1.9 times the right value: the velocity came into sgd_momentum_update holding the gradient already
  // ==== BEGIN EXERCISE: step ====
  average_gradients(comm, grad);
  ringlab::copy(velocity, View<const float>(grad));  // the bug: the velocity is the update's to write
  sgd_momentum_update(params, grad, velocity, lr, momentum);
  // ==== END EXERCISE ====
