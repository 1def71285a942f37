// mistake: grad set to 0 between the average and the update — a PyTorch zero_grad in the wrong
// place: the update takes 0 as its gradient. The values alone cannot tell it from a 1 / n computed in
// integers; the average hole passing with the reference step can, and the check says so.
// expect: 1
// expect-message: which hole: your step hole fails with the reference average; your average hole passes
// expect-message: every wrong value is 0: .*your average hole passes with the reference, which leaves one cause: it was overwritten with zeros once averaged \(a fill, or a zero_grad, before the update
// expect-no-message: computed in integers
// ==== BEGIN EXERCISE: step ====
  average_gradients(comm, grad);
  ringlab::fill(grad, 0.0f);  // the bug: zero_grad belongs after the step has used the gradient
  sgd_momentum_update(params, grad, velocity, lr, momentum);
// ==== END EXERCISE ====
