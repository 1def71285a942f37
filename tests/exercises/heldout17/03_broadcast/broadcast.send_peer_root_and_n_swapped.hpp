// mistake: the send peer calls absolute(v + mask, n, root): the root and n arguments swapped (a modulo by root)
  // ==== BEGIN EXERCISE: binomial tree ====
  for (int k = 0, mask = 1; mask < n; ++k, mask <<= 1) {  // round k: the first 2^k ranks have it
    tc.at("bcast-tree", k);
    if (v < mask) {
      if (v + mask < n) comm.send(buf, absolute(v + mask, n, root));
    } else if (v < 2 * mask) {
      comm.recv(buf, absolute(v - mask, root, n));
    }
  }
  // ==== END EXERCISE ====
