// mistake: one reduce-scatter step too many — the loop runs s = 0 .. n - 1 (s < n), so every
// rank adds one more partial sum into a chunk that already holds it.
// expect: 1
// expect-message: diagnosis: reduce-scatter step 1: rank 0 sent chunk 1 to rank 1, a send that the ring does not have — an extra send: rank 0 sent 3 messages to rank 1 in this call, the ring sends 2. Each phase has n - 1 = 1 step
// ==== BEGIN EXERCISE: reduce-scatter ====
  for (int s = 0; s < n; ++s) {  // the bug: n - 1 steps, not n
    tc.at("reduce-scatter", s);
    View<T> mine = chunk(r - s - 1);
    View<T> recv_buf = comm.scratch_like(mine);
    comm.sendrecv(chunk(r - s), next, recv_buf, prev);
    ringlab::reduce_sum(mine, recv_buf);
  }
// ==== END EXERCISE ====
