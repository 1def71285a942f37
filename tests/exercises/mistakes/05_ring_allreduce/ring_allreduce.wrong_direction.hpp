// mistake: wrong neighbour direction — every step sends to prev and receives from next, so each
// chunk travels round the ring the other way from the schedule the indices assume.
// On 3 ranks the chunk that arrives is not the size the receiver expects: an MPI error says so.
// expect: 4
// expect-message: ok +2 ranks +--check --type int32
// expect-message: FAIL +3 ranks +--check --type int32: stopped by an MPI error
// expect-message: sender and receiver disagree on its size
// expect-message: right on 2 ranks, wrong on 3 or more: .*send to next \(r\+1\) and receive from prev \(r-1\)
// ==== BEGIN EXERCISE: reduce-scatter ====
  for (int s = 0; s < n - 1; ++s) {
    tc.at("reduce-scatter", s);
    View<T> mine = chunk(r - s - 1);
    View<T> recv_buf = comm.scratch_like(mine);
    comm.sendrecv(chunk(r - s), prev, recv_buf, next);
    ringlab::reduce_sum(mine, recv_buf);
  }
// ==== END EXERCISE ====
// ==== BEGIN EXERCISE: allgather ====
  for (int s = 0; s < n - 1; ++s) {
    tc.at("allgather", s);
    comm.sendrecv(chunk(r + 1 - s), prev, chunk(r - s), next);
  }
// ==== END EXERCISE ====
