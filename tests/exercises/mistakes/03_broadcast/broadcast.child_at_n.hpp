// mistake: a send test that lets the child v + mask = n through — on ranks that are no power of
// two that child is no rank, and absolute() wraps it round to the root, which never receives it.
// expect: 1
// expect-message: FAIL +3 ranks +--check --type int32 --steps 0: wrong results
// expect-message: diagnosis: every rank sent and received as in a tree whose test before the send lets the child v \+ mask = n through
// expect-message: The first departure: round 1 .root 0.: rank 1 sent to rank 0
// ==== BEGIN EXERCISE: binomial tree ====
  for (int k = 0, mask = 1; mask < n; ++k, mask <<= 1) {  // round k: the first 2^k ranks have it
    tc.at("bcast-tree", k);
    if (v < mask) {
      if (v + mask <= n) comm.send(buf, absolute(v + mask, root, n));  // the bug: <= n
    } else if (v < 2 * mask) {
      comm.recv(buf, absolute(v - mask, root, n));
    }
  }
// ==== END EXERCISE ====
