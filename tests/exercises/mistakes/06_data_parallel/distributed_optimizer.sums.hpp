// mistake: summing where averaging is needed — the gradients are allreduced but not divided by
// the number of ranks, so every step is n times too large.
// expect: 1
// expect-message: FAIL +2 ranks +--check --data synthetic --epochs 1 --batch 96: wrong results
// expect-message: averaged gradient vs one process: .*expected .* got
// expect-message: diagnosis: rank 0, step 0, the averaged gradient: .*every wrong value is n = 3 times the right value: summed where the mean belongs
// expect-message: k = n for every number of ranks n — summed where the mean belongs
// ==== BEGIN EXERCISE: average ====
  ringlab::ring_allreduce_fast<float>(comm, grad, grad);  // the bug: the sum, never divided by comm.size()
// ==== END EXERCISE ====
