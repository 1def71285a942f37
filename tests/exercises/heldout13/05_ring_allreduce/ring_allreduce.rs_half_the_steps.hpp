// mistake: the reduce-scatter runs n / 2 steps ("it is half of the allreduce") instead of n - 1, so for n >= 3 no chunk is summed over all ranks
  // ==== BEGIN EXERCISE: reduce-scatter ====
  for (int s = 0; s < n / 2; ++s) {
    tc.at("reduce-scatter", s);
    View<T> mine = chunk(r - s - 1);
    View<T> recv_buf = comm.scratch_like(mine);  // scratch the size of mine, in the same memory
    comm.sendrecv(chunk(r - s), next, recv_buf, prev);
    ringlab::reduce_sum(mine, recv_buf);
  }
  // ==== END EXERCISE ====
