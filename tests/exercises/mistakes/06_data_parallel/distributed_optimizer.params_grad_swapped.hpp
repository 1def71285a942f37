// mistake: the weights and the gradient passed in each other's places to sgd_momentum_update —
// the update steps grad, with the weights as its gradient, and the weights never move.
// expect: 1
// expect-message: FAIL +2 ranks +--check --data synthetic --epochs 1 --batch 96: wrong results
// expect-message: diagnosis: rank 0, step 0, the averaged gradient: [0-9]+ wrong values, .*; the weights did not move, and grad is the average minus lr \* the velocity after the step, at every element: the update stepped grad instead of the weights, and the velocity holds the weights: it took the weights as its gradient — params and grad in each other's places in sgd_momentum_update
// ==== BEGIN EXERCISE: step ====
  average_gradients(comm, grad);
  sgd_momentum_update(grad, params, velocity, lr, momentum);  // the bug: params and grad swapped
// ==== END EXERCISE ====
