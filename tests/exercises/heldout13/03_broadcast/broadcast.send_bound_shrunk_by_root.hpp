// mistake: the sender's bound is v + mask < n - root (as if the relative numbering ended at n - root), so for a root other than 0 the highest v never get the data
  // ==== BEGIN EXERCISE: binomial tree ====
  for (int k = 0, mask = 1; mask < n; ++k, mask <<= 1) {  // round k: the first 2^k ranks have it
    tc.at("bcast-tree", k);
    if (v < mask) {
      if (v + mask < n - root) comm.send(buf, absolute(v + mask, root, n));
    } else if (v < 2 * mask) {
      comm.recv(buf, absolute(v - mask, root, n));
    }
  }
  // ==== END EXERCISE ====
