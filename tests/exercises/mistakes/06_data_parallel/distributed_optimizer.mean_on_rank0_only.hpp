// mistake: only rank 0 divides the sum by the number of ranks — a condition on the rank copied
// from code that prints: rank 0's gradient is the mean, every other rank's the sum.
// expect: 1
// expect-message: diagnosis: the averaged gradient is right on rank 0, wrong on rank 1 .each wrong value 2 times the right one.: the ranks did not all do the same — one possibility is a condition on comm.rank.. that lets only rank 0 .or only the others. through a call
// expect-message: which hole: your average hole fails
// ==== BEGIN EXERCISE: average ====
  ringlab::ring_allreduce_fast<float>(comm, grad, grad);
  if (comm.rank() == 0) ringlab::scale(grad, 1.0f / static_cast<float>(comm.size()));
// ==== END EXERCISE ====
