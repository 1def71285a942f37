// mistake: sending the chunk it should add into — the reduce-scatter sends chunk (r - s - 1)
// and adds what arrives into chunk (r - s): the two indices swapped, so the partial sums travel
// the wrong chunks and no rank finishes the one its allgather passes on.
// expect: 1
// expect-message: FAIL +2 ranks +--check --type int32 --impl ring: wrong results
// expect-message: diagnosis: reduce-scatter step 0: rank 0 sent chunk 1 to rank 1, expected chunk 0, the chunk the ring has it receive into there, and its receive took chunk 0, this send's — on 2 ranks one possibility is the send and receive views in each other's place
// expect-message: this send's: the send and receive views are in each other's place
// expect-message: That is your reduce-scatter hole; .\./ringlab hint 05. gives its rule
// expect-no-message: allgather passes chunks on before they are finished
// expect-message: which hole: your reduce-scatter hole fails with the reference allgather
// expect-message: your allgather hole passes with the reference reduce-scatter
// ==== BEGIN EXERCISE: reduce-scatter ====
  for (int s = 0; s < n - 1; ++s) {
    tc.at("reduce-scatter", s);
    View<T> mine = chunk(r - s);  // the bug: r - s is the chunk to send, r - s - 1 the one to add into
    View<T> recv_buf = comm.scratch_like(mine);
    comm.sendrecv(chunk(r - s - 1), next, recv_buf, prev);
    ringlab::reduce_sum(mine, recv_buf);
  }
// ==== END EXERCISE ====
