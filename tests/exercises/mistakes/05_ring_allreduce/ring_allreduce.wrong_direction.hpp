// mistake: wrong neighbour direction — every step sends to prev and receives from next, so each
// chunk travels round the ring the other way from the schedule the indices assume.
// On 2 ranks next and prev are the same rank and it passes; on 3 the trace of the first case
// (count 0, before any chunk could arrive too long for its buffer) names the wrong peer.
// expect: 1
// expect-message: ok +2 ranks +--check --type int32 --impl ring
// expect-message: FAIL +3 ranks +--check --type int32 --impl ring: wrong results
// expect-message: diagnosis: reduce-scatter step 0: rank 0 sent chunk 0 to rank 2, expected rank 1 — the peer is wrong
// expect-message: which hole\? building each of your holes with the reference for the others
// expect-message: which hole: your reduce-scatter hole fails with the reference allgather
// expect-message: your allgather hole fails with the reference reduce-scatter
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
