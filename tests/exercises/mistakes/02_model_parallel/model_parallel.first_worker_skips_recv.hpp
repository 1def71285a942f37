// mistake: rank 1 skipping its receive (r > 1 where r > 0 belongs) — rank 0's sum is lost.
// expect: 1
// expect-message: diagnosis: the last rank's result holds the terms of ranks 1..[0-9]+ only: the sum of rank 0 was lost on its way to rank 1
// ==== BEGIN EXERCISE: receive ====
  if (r > 1) comm.recv(View<T>(&y, 1), r - 1);  // the bug: r > 1, not r > 0
// ==== END EXERCISE ====
