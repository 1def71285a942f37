// mistake: the chunk the arrival is added into is (r - s - 2), the index from collectives.hpp's owner-r picture, while the send keeps (r - s)
  // ==== BEGIN EXERCISE: reduce-scatter ====
  for (int s = 0; s < n - 1; ++s) {
    tc.at("reduce-scatter", s);
    View<T> mine = chunk(r - s - 2);
    View<T> recv_buf = comm.scratch_like(mine);  // scratch the size of mine, in the same memory
    comm.sendrecv(chunk(r - s), next, recv_buf, prev);
    ringlab::reduce_sum(mine, recv_buf);
  }
  // ==== END EXERCISE ====
