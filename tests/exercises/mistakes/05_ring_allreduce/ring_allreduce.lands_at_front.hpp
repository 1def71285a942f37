// mistake: landing at the front of out — the reduce-scatter receives into out's first elements (no
// scratch): on rank 0 that is the chunk it sends at the same time, elsewhere a chunk it keeps.
// expect: 1
// expect-message: which hole: your reduce-scatter hole fails
// expect-message: rank 0's sendrecv receives into memory that it sends from at the same time .* what arrives overwrites what goes out — receive into memory that nothing sent or kept at this step uses .comm.scratch_like gives such memory.
// ==== BEGIN EXERCISE: reduce-scatter ====
  for (int s = 0; s < n - 1; ++s) {
    tc.at("reduce-scatter", s);
    View<T> mine = chunk(r - s - 1);
    View<T> recv_buf = out.sub(0, mine.size());  // the bug: out's own memory, not scratch
    comm.sendrecv(chunk(r - s), next, recv_buf, prev);
    ringlab::reduce_sum(mine, recv_buf);
  }
// ==== END EXERCISE ====
