// mistake: the round's mask never doubled — the loop counts k but leaves mask at 1, so it never
// ends: the root and rank 1 trade the data forever, every other rank loops without a call.
// expect: 1
// np: 3
// expect-message: bcast_tree: 1000000 steps in a row without a send or a receive, now at bcast-tree step 999999: the loop never ends
// ==== BEGIN EXERCISE: binomial tree ====
  for (int k = 0, mask = 1; mask < n; ++k) {  // the bug: mask <<= 1 is missing
    tc.at("bcast-tree", k);
    if (v < mask) {
      if (v + mask < n) comm.send(buf, absolute(v + mask, root, n));
    } else if (v < 2 * mask) {
      comm.recv(buf, absolute(v - mask, root, n));
    }
  }
// ==== END EXERCISE ====
