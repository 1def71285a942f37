  // ==== BEGIN EXERCISE: reduce-scatter ====
  View<T> mine = chunk(r - 1);  // the chunk this rank adds into
  for (int s = 0; s < n - 1; ++s) {
    tc.at("reduce-scatter", s);
    View<T> recv_buf = comm.scratch_like(mine);  // scratch the size of mine, in the same memory
    comm.sendrecv(chunk(r - s), next, recv_buf, prev);
    ringlab::reduce_sum(mine, recv_buf);
  }
  // ==== END EXERCISE ====
