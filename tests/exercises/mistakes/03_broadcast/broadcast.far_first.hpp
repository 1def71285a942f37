// mistake: the rounds in the wrong order — the tree starts with the largest mask (the far half
// first), so in round 0 the root sends to v = 2^k instead of v = 1; on 4 ranks and more a rank
// passes the data on before it has received it.
// expect: 1
// expect-message: FAIL +3 ranks +--check --type int32 --steps 0: wrong results
// expect-message: diagnosis: every rank sent and received as in a tree whose rounds run from the largest mask down to 1: in round k only the first 2\^k ranks
// expect-message: The first departure: round 0 .root 0.: rank 0 sent to rank 2, expected rank 1
// ==== BEGIN EXERCISE: binomial tree ====
  int top = 1;
  while (2 * top < n) top *= 2;  // the largest power of two below n
  for (int k = 0, mask = top; mask >= 1; ++k, mask >>= 1) {  // the bug: masks n/2 .. 1, not 1 .. n/2
    tc.at("bcast-tree", k);
    if (v < mask) {
      if (v + mask < n) comm.send(buf, absolute(v + mask, root, n));
    } else if (v < 2 * mask) {
      comm.recv(buf, absolute(v - mask, root, n));
    }
  }
// ==== END EXERCISE ====
