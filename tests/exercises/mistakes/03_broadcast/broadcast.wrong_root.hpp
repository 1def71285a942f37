// mistake: broadcasting from the wrong root — the tree is numbered from rank 0 (comm.rank())
// instead of from the root, so rank 0's data goes out whatever the root is.
// expect: 1
// expect-message: FAIL +2 ranks +--check --type int32 --steps 0: wrong results
// expect-message: diagnosis: every rank sent and received as in the tree from rank 0, but the root is rank 1: count ranks from the root
// expect-message: The first departure: round 0 .root 1.: rank 0 sent to rank 1
// ==== BEGIN EXERCISE: binomial tree ====
  (void)v;
  const int me = comm.rank();  // the bug: ranks counted from rank 0, not from the root
  for (int k = 0, mask = 1; mask < n; ++k, mask <<= 1) {
    tc.at("bcast-tree", k);
    if (me < mask) {
      if (me + mask < n) comm.send(buf, me + mask);
    } else if (me < 2 * mask) {
      comm.recv(buf, me - mask);
    }
  }
// ==== END EXERCISE ====
