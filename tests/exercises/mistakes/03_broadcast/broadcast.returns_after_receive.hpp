// mistake: returning once the data has arrived — a rank that received leaves the broadcast, though
// in every later round it must pass the data on to its own children.
// expect: 3
// np: 2 4
// expect-message: diagnosis: round 1 \(root 0\): rank 3 waits to receive from rank 1, as the binomial tree has it; .*but rank 1 has already returned from the binomial tree .*it left before making that send — one possibility is a loop it leaves too early
// ==== BEGIN EXERCISE: binomial tree ====
  for (int k = 0, mask = 1; mask < n; ++k, mask <<= 1) {  // round k: the first 2^k ranks have it
    tc.at("bcast-tree", k);
    if (v < mask) {
      if (v + mask < n) comm.send(buf, absolute(v + mask, root, n));
    } else if (v < 2 * mask) {
      comm.recv(buf, absolute(v - mask, root, n));
      return;  // the bug: this rank has the data, but its children do not yet
    }
  }
// ==== END EXERCISE ====
