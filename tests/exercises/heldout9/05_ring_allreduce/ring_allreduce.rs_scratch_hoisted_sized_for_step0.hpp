  // ==== BEGIN EXERCISE: reduce-scatter ====
  View<T> recv_buf = comm.scratch_like(chunk(r - 1));  // scratch the size of a chunk, in the same memory
  for (int s = 0; s < n - 1; ++s) {
    tc.at("reduce-scatter", s);
    View<T> mine = chunk(r - s - 1);
    comm.sendrecv(chunk(r - s), next, recv_buf, prev);
    ringlab::reduce_sum(mine, recv_buf);
  }
  // ==== END EXERCISE ====
