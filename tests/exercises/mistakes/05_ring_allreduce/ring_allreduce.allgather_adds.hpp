// mistake: an allgather that adds — the finished chunks are added into the receiver's chunk
// (as in the reduce-scatter) instead of copied over it, so values are too big by partial sums.
// expect: 1
// expect-message: wrong results
// expect-message: diagnosis: the allgather adds what arrives instead of copying it
// expect-no-message: allgather phase is missing
// ==== BEGIN EXERCISE: allgather ====
  for (int s = 0; s < n - 1; ++s) {
    tc.at("allgather", s);
    View<T> mine = chunk(r - s);
    View<T> recv_buf = comm.scratch_like(mine);
    comm.sendrecv(chunk(r + 1 - s), next, recv_buf, prev);
    ringlab::reduce_sum(mine, recv_buf);  // the bug: the allgather copies, it does not add
  }
// ==== END EXERCISE ====
