// mistake: instead of skipping a child past the end (v + mask >= n), the sender clamps the child to the last rank, v = n - 1, and sends to it anyway
  // ==== BEGIN EXERCISE: binomial tree ====
  for (int k = 0, mask = 1; mask < n; ++k, mask <<= 1) {  // round k: the first 2^k ranks have it
    tc.at("bcast-tree", k);
    if (v < mask) {
      comm.send(buf, absolute(std::min(v + mask, n - 1), root, n));
    } else if (v < 2 * mask) {
      comm.recv(buf, absolute(v - mask, root, n));
    }
  }
  // ==== END EXERCISE ====
