// mistake: the allgather sends from the communicator's scratch (where the reduce-scatter's arrivals landed) instead of the finished chunk r + 1 - s of out, so it hands round a stale partial sum
  // ==== BEGIN EXERCISE: allgather ====
  for (int s = 0; s < n - 1; ++s) {
    tc.at("allgather", s);
    comm.sendrecv(comm.scratch_like(chunk(r + 1 - s)), next, chunk(r - s), prev);
  }
  // ==== END EXERCISE ====
