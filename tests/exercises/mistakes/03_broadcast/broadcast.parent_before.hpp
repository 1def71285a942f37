// mistake: receiving from the rank before instead of the parent — a rank receives from v - 1,
// which is its parent only in round 0; from round 1 on it waits for a rank that never sends to it.
// expect: 3
// expect-message: hung: the watchdog stopped it
// expect-message: compared with the binomial tree, the schedule of exercise 03
// expect-message: diagnosis: round 1 .root 0.: rank 2 waits to receive from rank 1. the binomial tree has rank 2 receive from rank 0 there .its parent.: the peer is wrong
// expect-message: That is your binomial tree hole
// expect-no-message: next = |Reorder the calls
// ==== BEGIN EXERCISE: binomial tree ====
  for (int k = 0, mask = 1; mask < n; ++k, mask <<= 1) {
    tc.at("bcast-tree", k);
    if (v < mask) {
      if (v + mask < n) comm.send(buf, absolute(v + mask, root, n));
    } else if (v < 2 * mask) {
      comm.recv(buf, absolute(v - 1, root, n));  // the bug: v - 1, not v - mask
    }
  }
// ==== END EXERCISE ====
