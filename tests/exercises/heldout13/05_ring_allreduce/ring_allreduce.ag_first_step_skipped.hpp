// mistake: the allgather starts at s = 1 ("chunk r + 1 is already finished, so step 0 is done"), taking only n - 2 steps and passing on a chunk that never arrived finished
  // ==== BEGIN EXERCISE: allgather ====
  for (int s = 1; s < n - 1; ++s) {
    tc.at("allgather", s);
    comm.sendrecv(chunk(r + 1 - s), next, chunk(r - s), prev);
  }
  // ==== END EXERCISE ====
