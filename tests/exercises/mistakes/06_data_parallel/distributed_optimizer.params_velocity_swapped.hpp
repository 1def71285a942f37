// mistake: the weights and the velocity passed in each other's places to sgd_momentum_update —
// the weights get the velocity's formula, momentum * w + grad.
// expect: 1
// expect-message: step 0, how far each weight moved: .*every wrong weight now holds momentum \* its value before \+ the gradient \(0.9 \* w \+ g\).*passed in each other's places to sgd_momentum_update
  // ==== BEGIN EXERCISE: step ====
  average_gradients(comm, grad);
  sgd_momentum_update(velocity, grad, params, lr, momentum);  // the bug: velocity and params swapped
  // ==== END EXERCISE ====
