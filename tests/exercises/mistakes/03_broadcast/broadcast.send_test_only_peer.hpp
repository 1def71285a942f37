// mistake: deciding who sends only by whether the child exists (v + mask < n), without asking
// whether the rank has the data (v < mask): in round 0 on 3 ranks rank 1 sends to rank 2 before
// it received anything, and never receives.
// expect: 1
// expect-message: FAIL +3 ranks +--check --type int32 --steps 0: wrong results
// expect-message: diagnosis: round 0 .root 0.: rank 1 sent to rank 2, a send that the binomial tree does not have — an extra send: rank 1 sends before its first receive: the binomial tree has rank 1 receive from rank 0 .its parent. in this round, so it has no data yet to send
// expect-message: That is your binomial tree hole
// ==== BEGIN EXERCISE: binomial tree ====
  for (int k = 0, mask = 1; mask < n; ++k, mask <<= 1) {
    tc.at("bcast-tree", k);
    if (v + mask < n) {  // the bug: no v < mask test
      comm.send(buf, absolute(v + mask, root, n));
    } else if (v >= mask && v < 2 * mask) {
      comm.recv(buf, absolute(v - mask, root, n));
    }
  }
// ==== END EXERCISE ====
