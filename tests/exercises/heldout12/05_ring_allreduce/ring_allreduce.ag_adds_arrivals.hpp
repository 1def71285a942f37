// mistake: the allgather treats arrivals like the reduce-scatter: it receives into scratch and adds into its copy instead of replacing it
  // ==== BEGIN EXERCISE: allgather ====
  for (int s = 0; s < n - 1; ++s) {
    tc.at("allgather", s);
    View<T> recv_buf = comm.scratch_like(chunk(r - s));
    comm.sendrecv(chunk(r + 1 - s), next, recv_buf, prev);
    ringlab::reduce_sum(chunk(r - s), recv_buf);
  }
  // ==== END EXERCISE ====
