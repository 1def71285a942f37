// mistake: the tree is run in the direction of a reduce: ranks with v < mask receive from v + mask and ranks with mask <= v < 2 * mask send to v - mask
  // ==== BEGIN EXERCISE: binomial tree ====
  for (int k = 0, mask = 1; mask < n; ++k, mask <<= 1) {  // round k: the first 2^k ranks have it
    tc.at("bcast-tree", k);
    if (v < mask) {
      if (v + mask < n) comm.recv(buf, absolute(v + mask, root, n));
    } else if (v < 2 * mask) {
      comm.send(buf, absolute(v - mask, root, n));
    }
  }
  // ==== END EXERCISE ====
