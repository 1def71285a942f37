// mistake: the reduce-scatter receives straight into its own copy of the chunk and adds nothing, so each step overwrites the partial sum instead of adding to it
  // ==== BEGIN EXERCISE: reduce-scatter ====
  for (int s = 0; s < n - 1; ++s) {
    tc.at("reduce-scatter", s);
    View<T> mine = chunk(r - s - 1);
    comm.sendrecv(chunk(r - s), next, mine, prev);
  }
  // ==== END EXERCISE ====
