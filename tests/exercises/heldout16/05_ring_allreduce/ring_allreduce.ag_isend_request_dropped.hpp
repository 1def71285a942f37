// mistake: the allgather's send is made non-blocking (isend, then a blocking recv) so the ring cannot deadlock, but its Request is never waited for
  // ==== BEGIN EXERCISE: allgather ====
  for (int s = 0; s < n - 1; ++s) {
    tc.at("allgather", s);
    ringlab::Request sent = comm.isend(chunk(r + 1 - s), next);
    comm.recv(chunk(r - s), prev);
  }
  // ==== END EXERCISE ====
