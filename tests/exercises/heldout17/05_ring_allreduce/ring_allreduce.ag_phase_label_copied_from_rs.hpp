// mistake: the allgather's steps are labelled "reduce-scatter" in the trace (the line copied from the first hole)
  // ==== BEGIN EXERCISE: allgather ====
  for (int s = 0; s < n - 1; ++s) {
    tc.at("reduce-scatter", s);
    comm.sendrecv(chunk(r + 1 - s), next, chunk(r - s), prev);
  }
  // ==== END EXERCISE ====
