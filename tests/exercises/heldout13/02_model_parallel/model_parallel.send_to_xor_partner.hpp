// mistake: the peer is r ^ 1 (the ping-pong partner) instead of r + 1: odd ranks send back to r - 1, and rank 2, 4, ... gets nothing from the rank before
  // ==== BEGIN EXERCISE: send ====
  if (r < last) comm.send(View<const T>(&y, 1), r ^ 1);  // pass it on
  // ==== END EXERCISE ====
