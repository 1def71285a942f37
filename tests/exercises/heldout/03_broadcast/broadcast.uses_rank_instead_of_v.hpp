// held-out mistake (README.md): only the holes that differ from the solution;
// scripts/ringlab-exercise fill SOLUTION THIS OUT makes the whole header.
// ==== BEGIN EXERCISE: binomial tree ====
  const int me = comm.rank();
  for (int k = 0, mask = 1; mask < n; ++k, mask <<= 1) {  // round k: the first 2^k ranks have it
    tc.at("bcast-tree", k);
    if (me < mask) {
      if (me + mask < n) comm.send(buf, absolute(me + mask, root, n));
    } else if (me < 2 * mask) {
      comm.recv(buf, absolute(me - mask, root, n));
    }
  }
  (void)v;
// ==== END EXERCISE ====
