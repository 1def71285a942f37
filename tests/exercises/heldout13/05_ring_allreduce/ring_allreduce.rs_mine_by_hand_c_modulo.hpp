// mistake: the chunk to add into is built by hand with chunk_of and C++'s %, (r - s - 1) % n, which is negative at rank 0 (and wherever r - s - 1 < 0) instead of wrapping
  // ==== BEGIN EXERCISE: reduce-scatter ====
  for (int s = 0; s < n - 1; ++s) {
    tc.at("reduce-scatter", s);
    const ringlab::Chunk c = ringlab::chunk_of(out.size(), n, (r - s - 1) % n);
    View<T> mine = out.sub(c.offset, c.count, (r - s - 1) % n);
    View<T> recv_buf = comm.scratch_like(mine);  // scratch the size of mine, in the same memory
    comm.sendrecv(chunk(r - s), next, recv_buf, prev);
    ringlab::reduce_sum(mine, recv_buf);
  }
  // ==== END EXERCISE ====
