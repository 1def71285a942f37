// mistake: the allgather reuses the reduce-scatter's chunk indices (send r - s, receive r - s - 1), one behind: at step 0 it sends an unfinished chunk, not (r + 1) mod n
  // ==== BEGIN EXERCISE: allgather ====
  for (int s = 0; s < n - 1; ++s) {
    tc.at("allgather", s);
    comm.sendrecv(chunk(r - s), next, chunk(r - s - 1), prev);
  }
  // ==== END EXERCISE ====
