// mistake: receiving from itself — the peer is comm.rank() instead of rank - 1, so every rank
// but 0 waits for a message it would have to send itself. The watchdog must blame the peer
// arithmetic, not suggest sendrecv.
// expect: 3
// expect-message: waits to receive from itself
// expect-message: the peer arithmetic is wrong
// expect-message: diagnosis: forward step 1: rank 1 waits to receive from rank 1. the chain has rank 1 receive from rank 0 there .the rank before it.: the peer is wrong. That is your receive hole
// ==== BEGIN EXERCISE: receive ====
  if (r > 0) comm.recv(View<T>(&y, 1), r);  // the bug: r, not r - 1
// ==== END EXERCISE ====
