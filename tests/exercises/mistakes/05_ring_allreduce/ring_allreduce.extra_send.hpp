// mistake: an extra send — each reduce-scatter step sends its chunk with comm.send and then again
// in the comm.sendrecv, so the next rank adds the first copy and one message per step is left over.
// expect: 1
// expect-message: diagnosis: reduce-scatter step 0: rank 0 sent chunk 0 to rank 1, a send that the ring does not have — an extra send: rank 0 sent 3 messages to rank 1 in this call, the ring sends 2
// expect-no-message: deadlock
// ==== BEGIN EXERCISE: reduce-scatter ====
  for (int s = 0; s < n - 1; ++s) {
    tc.at("reduce-scatter", s);
    View<T> mine = chunk(r - s - 1);
    View<T> recv_buf = comm.scratch_like(mine);
    comm.send(chunk(r - s), next);  // the bug: the sendrecv below sends it already
    comm.sendrecv(chunk(r - s), next, recv_buf, prev);
    ringlab::reduce_sum(mine, recv_buf);
  }
// ==== END EXERCISE ====
