// mistake: the whole step guarded by comm.size() > 1 ("nothing to distribute on one rank") —
// the update is skipped with the averaging, and one rank never learns.
// np: 1 2
// expect: 1
// expect-message: FAIL +1 rank
// expect-message: which hole: your step hole fails with the reference average
// expect-message: On 1 rank that call changes no value: not what made them wrong
// ==== BEGIN EXERCISE: step ====
  if (comm.size() > 1) {  // the bug: one rank must step as well
    average_gradients(comm, grad);
    sgd_momentum_update(params, grad, velocity, lr, momentum);
  }
// ==== END EXERCISE ====
