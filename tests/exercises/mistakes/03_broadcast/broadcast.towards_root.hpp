// mistake: the sends and receives swapped — a reduce's tree: in every round the child sends to its
// parent, so the data flows towards the root and the root ends with another rank's buffer.
// expect: 1
// expect-message: diagnosis: every rank sent and received as in a tree whose sends and receives are swapped: in every round the child sends to its parent
// expect-message: The first departure: round 0 .root 0.: rank 0 never sends to rank 1: rank 0 sent 0 messages
// expect-no-message: a send is missing
// ==== BEGIN EXERCISE: binomial tree ====
  for (int k = 0, mask = 1; mask < n; ++k, mask <<= 1) {
    tc.at("bcast-tree", k);
    if (v < mask) {
      if (v + mask < n) comm.recv(buf, absolute(v + mask, root, n));  // the bug: receives from its child
    } else if (v < 2 * mask) {
      comm.send(buf, absolute(v - mask, root, n));  // ... which sends to its parent
    }
  }
// ==== END EXERCISE ====
