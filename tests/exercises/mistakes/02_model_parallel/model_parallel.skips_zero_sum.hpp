// mistake: no send when there is "nothing to pass on" — a partial sum of 0 is a value like any
// other, and the next rank waits for it.
// expect: 3
// expect-message: the check's last line before the hang: chain sum  3 terms per rank, rank 0's weights all 0: its partial sum is 0, passed on like any other
// expect-message: but rank 0 has already returned from the chain .* another, that send inside a condition that leaves this rank out
// ==== BEGIN EXERCISE: send ====
  if (r < last && y != T(0)) comm.send(View<const T>(&y, 1), r + 1);  // the bug: 0 is passed on too
// ==== END EXERCISE ====
