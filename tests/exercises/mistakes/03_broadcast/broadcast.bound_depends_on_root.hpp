// mistake: the send test's bound shrunk by the root (v + mask < n - root) — right with root 0;
// with another root, as if the ranks after the root were all there are, some never get the data.
// expect: 3
// expect-message: FAIL +2 ranks +--check --type int32 --steps 0: hung
// expect-message: With root 0 every rank made the binomial tree's calls and got the right values; this call differs only in its root \(root 1\): look at where the root enters your code
// ==== BEGIN EXERCISE: binomial tree ====
  for (int k = 0, mask = 1; mask < n; ++k, mask <<= 1) {  // round k: the first 2^k ranks have it
    tc.at("bcast-tree", k);
    if (v < mask) {
      if (v + mask < n - root) comm.send(buf, absolute(v + mask, root, n));  // the bug: < n
    } else if (v < 2 * mask) {
      comm.recv(buf, absolute(v - mask, root, n));
    }
  }
// ==== END EXERCISE ====
