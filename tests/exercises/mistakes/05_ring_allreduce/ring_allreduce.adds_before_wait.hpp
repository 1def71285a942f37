// mistake: adding before the receive is waited for — the reduce-scatter posts its receive with
// irecv, sends, adds the landing buffer into its chunk, and only then waits: it adds what the
// buffer held before the message came.
// expect: 1
// expect-message: diagnosis: reduce-scatter step 0: rank 0 added into chunk 1 before that step's receive \(of chunk 1 from rank 1\) had brought anything.*Receive first, then add what arrived. That is your reduce-scatter hole
// ==== BEGIN EXERCISE: reduce-scatter ====
  for (int s = 0; s < n - 1; ++s) {
    tc.at("reduce-scatter", s);
    View<T> mine = chunk(r - s - 1);
    View<T> recv_buf = comm.scratch_like(mine);  // scratch the size of mine, in the same memory
    auto incoming = comm.irecv(recv_buf, prev);
    comm.send(chunk(r - s), next);
    ringlab::reduce_sum(mine, recv_buf);  // the bug: recv_buf holds the message only after the wait
    comm.wait(incoming);
  }
// ==== END EXERCISE ====
