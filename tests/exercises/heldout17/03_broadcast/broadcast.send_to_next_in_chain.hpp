// mistake: holders send to v + 1 (the pipelined chain's neighbour) instead of v + mask; the receivers still expect v - mask
  // ==== BEGIN EXERCISE: binomial tree ====
  for (int k = 0, mask = 1; mask < n; ++k, mask <<= 1) {  // round k: the first 2^k ranks have it
    tc.at("bcast-tree", k);
    if (v < mask) {
      if (v + mask < n) comm.send(buf, absolute(v + 1, root, n));
    } else if (v < 2 * mask) {
      comm.recv(buf, absolute(v - mask, root, n));
    }
  }
  // ==== END EXERCISE ====
