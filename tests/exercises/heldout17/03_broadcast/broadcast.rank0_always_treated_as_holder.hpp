// mistake: real rank 0 is always treated as a holder of the data (a root-0 habit): with another root it sends before it has the data and never receives
  // ==== BEGIN EXERCISE: binomial tree ====
  for (int k = 0, mask = 1; mask < n; ++k, mask <<= 1) {  // round k: the first 2^k ranks have it
    tc.at("bcast-tree", k);
    if (v < mask || comm.rank() == 0) {
      if (v + mask < n) comm.send(buf, absolute(v + mask, root, n));
    } else if (v < 2 * mask) {
      comm.recv(buf, absolute(v - mask, root, n));
    }
  }
  // ==== END EXERCISE ====
