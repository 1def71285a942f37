// mistake: ringlab::fill where ringlab::scale belongs — every element of the gradient becomes 1/n,
// where the sum must be multiplied by 1/n.
// expect: 1
// expect-message: FAIL +2 ranks +--check --data synthetic --epochs 1 --batch 96: wrong results
// expect-message: every wrong value is the same number, 0.5 = 1/n = 1/2, where the right values differ \(written over them, not computed from them
// ==== BEGIN EXERCISE: average ====
  ringlab::ring_allreduce_fast<float>(comm, grad, grad);
  ringlab::fill(grad, 1.0f / static_cast<float>(comm.size()));  // the bug: scale, not fill
// ==== END EXERCISE ====
