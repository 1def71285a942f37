// mistake: blocking send before receive — every rank sends its chunk, then receives. Small
// chunks slip through (MPI buffers them); a big chunk's send waits for a receive that the next
// rank never posts, because it is sending too. The watchdog must name the cycle.
// expect: 3
// expect-message: hung: the watchdog stopped it
// expect-message: deadlock: rank 0 waits to send to 1; rank 1 waits to send to 0
// expect-message: sends before it receives
// expect-message: in ring_allreduce, reduce-scatter step 0
// expect-message: Every blocked call is one the ring makes at that step: the peers are right
// ==== BEGIN EXERCISE: reduce-scatter ====
  for (int s = 0; s < n - 1; ++s) {
    tc.at("reduce-scatter", s);
    View<T> mine = chunk(r - s - 1);
    View<T> recv_buf = comm.scratch_like(mine);
    comm.send(chunk(r - s), next);
    comm.recv(recv_buf, prev);
    ringlab::reduce_sum(mine, recv_buf);
  }
// ==== END EXERCISE ====
