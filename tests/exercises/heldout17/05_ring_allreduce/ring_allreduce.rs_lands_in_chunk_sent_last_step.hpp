// mistake: the incoming chunk lands in this rank's copy of the chunk it sent the step before (thought free), not in scratch
  // ==== BEGIN EXERCISE: reduce-scatter ====
  for (int s = 0; s < n - 1; ++s) {
    tc.at("reduce-scatter", s);
    View<T> mine = chunk(r - s - 1);
    View<T> recv_buf = chunk(r - s + 1);  // the chunk sent last step has left: reuse its memory
    comm.sendrecv(chunk(r - s), next, recv_buf, prev);
    ringlab::reduce_sum(mine, recv_buf);
  }
  // ==== END EXERCISE ====
