// mistake: the mean taken of a host copy of the gradient — two faults at once: the copy reads
// device memory (the simulated GPU stops it first), and the gradient itself keeps the sum. One rank
// cannot show the second (its sum is its mean): the check's host-memory run tries 2 ranks too.
// expect: 4
// expect-message: which hole: your average hole crashes with the reference step
// expect-message: error: host code touched device memory
// expect-message: on host memory \(--device cpu\), where that code may touch the data, the same run on 2 ranks fails as well: a second fault
// expect-message: every wrong value is n = 2 times the right value
// expect-no-message: its values are right there
// ==== BEGIN EXERCISE: average ====
  ringlab::ring_allreduce_fast<float>(comm, grad, grad);
  std::vector<float> mean(grad.begin(), grad.end());  // the bug: a host copy, scaled; grad keeps the sum
  for (float& g : mean) g /= static_cast<float>(comm.size());
// ==== END EXERCISE ====
