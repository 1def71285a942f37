// mistake: rank 0 "starting the chain" in the receive hole with a send of its y, still 0 — a
// send before its terms are added, and one more than the chain's receives take.
// expect: 1
// expect-message: which hole: your receive hole fails with the reference send
// expect-message: what reached rank 1 is rank 0's y before it added its terms — one possibility is that rank 0 sends in its receive hole, before adding them
// expect-no-message: which leaves one cause: rank 1
// ==== BEGIN EXERCISE: receive ====
  if (r > 0) comm.recv(View<T>(&y, 1), r - 1);
  else comm.send(View<const T>(&y, 1), r + 1);  // the bug: rank 0 receives nothing, and sends later
// ==== END EXERCISE ====
