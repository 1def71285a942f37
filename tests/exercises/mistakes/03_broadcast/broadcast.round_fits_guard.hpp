// mistake: the send guarded by whether the whole round fits (2 * mask <= n), not whether this
// sender's child exists (v + mask < n): in a last, partial round nobody sends.
// expect: 3
// expect-message: rank 0 has already returned from the binomial tree
// expect-message: another, that send inside a condition that leaves this rank out
// expect-no-message: lets the child v \+ mask = n through
// ==== BEGIN EXERCISE: binomial tree ====
  for (int k = 0, mask = 1; mask < n; ++k, mask <<= 1) {
    tc.at("bcast-tree", k);
    if (v < mask) {
      if (2 * mask <= n) comm.send(buf, absolute(v + mask, root, n));  // the bug
    } else if (v < 2 * mask) {
      comm.recv(buf, absolute(v - mask, root, n));
    }
  }
// ==== END EXERCISE ====
