// mistake: the rounds run from the largest mask down to 1 (the order of a scatter), with the same tests, so ranks forward data they do not have yet
  // ==== BEGIN EXERCISE: binomial tree ====
  int top = 1;
  while (top < n) top <<= 1;
  for (int k = 0, mask = top >> 1; mask >= 1; ++k, mask >>= 1) {  // round k: the first 2^k ranks have it
    tc.at("bcast-tree", k);
    if (v < mask) {
      if (v + mask < n) comm.send(buf, absolute(v + mask, root, n));
    } else if (v < 2 * mask) {
      comm.recv(buf, absolute(v - mask, root, n));
    }
  }
  // ==== END EXERCISE ====
