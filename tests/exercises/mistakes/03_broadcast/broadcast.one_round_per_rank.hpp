// mistake: one round per rank (k < n) where the tree has ceil(log2 n) — the extra rounds find
// no rank to send to, so every message and value is right: only the rounds counted in the trace
// show it (and 2^k overflows an int from n = 32 on).
// expect: 1
// expect-message: diagnosis: every transfer is the binomial tree's, but rank 0 went on to round [0-9]+ .root 0., past the binomial tree's last, round [0-9]+ .root 0.: its loop runs more rounds than the binomial tree has
// ==== BEGIN EXERCISE: binomial tree ====
  for (int k = 0, mask = 1; k < n; ++k, mask <<= 1) {
    tc.at("bcast-tree", k);
    if (v < mask) {
      if (v + mask < n) comm.send(buf, absolute(v + mask, root, n));
    } else if (v < 2 * mask) {
      comm.recv(buf, absolute(v - mask, root, n));
    }
  }
// ==== END EXERCISE ====
