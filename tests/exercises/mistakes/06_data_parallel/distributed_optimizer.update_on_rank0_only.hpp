// mistake: the update on rank 0 only, then its weights broadcast — a parameter server's habit:
// every rank must run the update, or the other ranks' velocity never moves.
// expect: 1
// expect-message: FAIL +2 ranks +--check --data synthetic --epochs 1 --batch 96: wrong results
// expect-message: One call too many: broadcast\(params\)
// expect-message: diagnosis: the velocity after the step is right on rank 0, wrong on rank 1 \(there it is still the velocity from before the step: the update never ran there\)
// ==== BEGIN EXERCISE: step ====
  average_gradients(comm, grad);
  if (comm.rank() == 0) sgd_momentum_update(params, grad, velocity, lr, momentum);  // the bug
  broadcast(comm, params);
// ==== END EXERCISE ====
