// mistake: reduce_sum's arguments are swapped: the sum is written into the scratch buffer, and this rank's chunk never changes
  // ==== BEGIN EXERCISE: reduce-scatter ====
  for (int s = 0; s < n - 1; ++s) {
    tc.at("reduce-scatter", s);
    View<T> mine = chunk(r - s - 1);
    View<T> recv_buf = comm.scratch_like(mine);  // scratch the size of mine, in the same memory
    comm.sendrecv(chunk(r - s), next, recv_buf, prev);
    ringlab::reduce_sum(recv_buf, mine);
  }
  // ==== END EXERCISE ====
