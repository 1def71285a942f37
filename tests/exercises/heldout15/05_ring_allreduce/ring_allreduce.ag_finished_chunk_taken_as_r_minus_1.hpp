// mistake: the allgather starts from chunk r - 1 as the finished one (misreading "rank r holds chunk r + 1"): it sends chunk r - 1 - s and lands chunk r - 2 - s
  // ==== BEGIN EXERCISE: allgather ====
  for (int s = 0; s < n - 1; ++s) {
    tc.at("allgather", s);
    comm.sendrecv(chunk(r - 1 - s), next, chunk(r - 2 - s), prev);
  }
  // ==== END EXERCISE ====
