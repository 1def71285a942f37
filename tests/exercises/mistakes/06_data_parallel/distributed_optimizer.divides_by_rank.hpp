// mistake: dividing by the rank's number — comm.rank() where comm.size() belongs: rank 0 divides
// by zero, rank r scales the sum by 1/r, so each rank's averaged gradient is wrong by its own factor.
// expect: 1
// expect-message: FAIL +2 ranks +--check --data synthetic --epochs 1 --batch 96: wrong results
// expect-message: diagnosis: the averaged gradient's wrong values are k times the right ones, k = NaN or inf on rank 0, 2 on rank 1: k = n / r on rank r \(a division by zero on rank 0\) — divided by the rank's number \(comm.rank\(\)\)
// ==== BEGIN EXERCISE: average ====
  ringlab::ring_allreduce_fast<float>(comm, grad, grad);
  ringlab::scale(grad, 1.0f / static_cast<float>(comm.rank()));  // the bug: rank, not size
// ==== END EXERCISE ====
