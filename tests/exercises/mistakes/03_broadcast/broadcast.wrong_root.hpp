// mistake: broadcasting from the wrong root — the tree is numbered from rank 0 (comm.rank())
// instead of from the root, so rank 0's data goes out whatever the root is.
// expect: 1
// expect-message: FAIL +2 ranks +--check --type int32 --steps 0: wrong results
// expect-message: tree +[0-9]+ +int32 +1 +[1-9]
// expect-message: right when the root is rank 0, wrong for every other root
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
