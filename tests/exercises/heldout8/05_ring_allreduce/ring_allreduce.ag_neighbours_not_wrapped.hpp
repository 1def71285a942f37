  // ==== BEGIN EXERCISE: allgather ====
  for (int s = 0; s < n - 1; ++s) {
    tc.at("allgather", s);
    comm.sendrecv(chunk(r + 1 - s), r + 1, chunk(r - s), r - 1);
  }
  // ==== END EXERCISE ====
