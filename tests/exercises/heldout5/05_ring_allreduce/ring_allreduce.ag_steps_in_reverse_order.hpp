  // ==== BEGIN EXERCISE: allgather ====
  for (int s = n - 2; s >= 0; --s) {
    tc.at("allgather", s);
    comm.sendrecv(chunk(r + 1 - s), next, chunk(r - s), prev);
  }
  // ==== END EXERCISE ====
