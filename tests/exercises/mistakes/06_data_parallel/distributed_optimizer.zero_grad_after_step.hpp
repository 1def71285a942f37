// mistake: grad set to 0 after the update (PyTorch's optimizer.zero_grad()) — the step must
// return with grad holding the averaged gradient.
// expect: 1
// expect-message: FAIL +2 ranks +--check --data synthetic --epochs 1 --batch 96: wrong results
// expect-message: diagnosis: rank 0, step 0, the averaged gradient: [0-9]+ wrong values, .*every wrong value is 0: 0 was written where grad held this rank's own non-zero gradient, after the update: the weights and the velocity moved as the average moves them
// ==== BEGIN EXERCISE: step ====
  average_gradients(comm, grad);
  sgd_momentum_update(params, grad, velocity, lr, momentum);
  ringlab::fill(grad, 0.0f);  // the bug: grad must hold the average when the step returns
// ==== END EXERCISE ====
