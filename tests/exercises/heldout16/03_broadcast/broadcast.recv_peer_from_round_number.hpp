// mistake: the parent is taken as k + 1 below (v - k - 1, generalised from rounds 0 and 1 where k + 1 == 2^k) instead of mask below (v - mask): wrong from round 2 on, i.e. for more than 4 ranks
  // ==== BEGIN EXERCISE: binomial tree ====
  for (int k = 0, mask = 1; mask < n; ++k, mask <<= 1) {  // round k: the first 2^k ranks have it
    tc.at("bcast-tree", k);
    if (v < mask) {
      if (v + mask < n) comm.send(buf, absolute(v + mask, root, n));
    } else if (v < 2 * mask) {
      comm.recv(buf, absolute(v - k - 1, root, n));
    }
  }
  // ==== END EXERCISE ====
