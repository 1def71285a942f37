// mistake: the sent chunk's index is wrapped with wrap(n, i) instead of wrap(i, n): the helper's arguments swapped
  // ==== BEGIN EXERCISE: allgather ====
  for (int s = 0; s < n - 1; ++s) {
    tc.at("allgather", s);
    comm.sendrecv(chunk(wrap(n, r + 1 - s)), next, chunk(r - s), prev);
  }
  // ==== END EXERCISE ====
