// mistake: the parent is v & (v - 1) (clear the lowest bit, the other tree's parent) instead of v - mask (clear the highest bit)
  // ==== BEGIN EXERCISE: binomial tree ====
  for (int k = 0, mask = 1; mask < n; ++k, mask <<= 1) {  // round k: the first 2^k ranks have it
    tc.at("bcast-tree", k);
    if (v < mask) {
      if (v + mask < n) comm.send(buf, absolute(v + mask, root, n));
    } else if (v < 2 * mask) {
      comm.recv(buf, absolute(v & (v - 1), root, n));
    }
  }
  // ==== END EXERCISE ====
