// mistake: dividing with a host loop — `for (float& g : grad) g /= n;` is right on the CPU, where
// the gradient is host memory, and crashes on a GPU, where it is device memory that host code
// cannot touch. The check runs on the simulated GPU (manifest: device = sim), which stops it the
// same way and says which byte of which buffer.
// expect: 4
// expect-message: FAIL +2 ranks +--check --data synthetic --epochs 1 --batch 96: crashed \(exit 5\)
// expect-message: error: host code touched device memory: byte 0 of a device buffer of 940584 bytes \(--device sim, a simulated GPU\)
// expect-message: which hole: your average hole crashes with the reference step; your step hole passes with the reference average
// expect-message: on host memory \(--device cpu\) the same run passes on (1 and 2|2) ranks: apart from where the code runs, its values are right there
// expect-no-message: \] \[rank
// ==== BEGIN EXERCISE: average ====
  ringlab::ring_allreduce_fast<float>(comm, grad, grad);
  for (float& g : grad) g /= static_cast<float>(comm.size());  // the bug: a host loop over device memory
// ==== END EXERCISE ====
