// mistake: the step as lesson 04's server wrote it, a host loop of plain SGD — two faults at once:
// the loop touches device memory (the simulated GPU stops it first), and without sgd_momentum_update
// the velocity never moves. The check's second run on host memory shows the second fault too.
// expect: 4
// expect-message: which hole: your step hole crashes with the reference average; your average hole passes with the reference step
// expect-message: error: host code touched device memory
// expect-message: on host memory \(--device cpu\), where that code may touch the data, the same run on [12] ranks? fails as well: a second fault
// expect-message: the weights moved right, but the new velocity was never stored
// ==== BEGIN EXERCISE: step ====
  average_gradients(comm, grad);
  for (std::size_t i = 0; i < params.size(); ++i) params[i] -= lr * grad[i];  // the bug: both faults
  (void)velocity, (void)momentum;
// ==== END EXERCISE ====
