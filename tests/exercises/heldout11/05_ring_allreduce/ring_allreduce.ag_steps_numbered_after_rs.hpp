  // ==== BEGIN EXERCISE: allgather ====
  for (int s = n - 1; s < 2 * (n - 1); ++s) {  // steps n-1 .. 2(n-1)-1 of the whole ring
    tc.at("allgather", s);
    comm.sendrecv(chunk(r + 1 - s), next, chunk(r - s), prev);
  }
  // ==== END EXERCISE ====
