// mistake: a receiver takes its parent to be v / 2 (a binary-heap parent) instead of v - mask, the rank that sends to it in this round
  // ==== BEGIN EXERCISE: binomial tree ====
  for (int k = 0, mask = 1; mask < n; ++k, mask <<= 1) {  // round k: the first 2^k ranks have it
    tc.at("bcast-tree", k);
    if (v < mask) {
      if (v + mask < n) comm.send(buf, absolute(v + mask, root, n));
    } else if (v < 2 * mask) {
      comm.recv(buf, absolute(v / 2, root, n));
    }
  }
  // ==== END EXERCISE ====
