// mistake: the last rank adds what it received a second time — the receive already put it in y,
// so `y += received` on the last rank counts it twice; every rank before it is right.
// expect: 1
// expect-message: which hole: your send hole fails with the reference receive
// expect-message: diagnosis: rank 1 returned y = .*, where what it received .* plus its own terms .* is .*: y is that sum plus what it received once more — what arrived is counted twice
// expect-no-message: left out
// ==== BEGIN EXERCISE: send ====
  if (r < last) comm.send(View<const T>(&y, 1), r + 1);  // pass it on
  else y += received;  // the bug: y already holds what was received
// ==== END EXERCISE ====
