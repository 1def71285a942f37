// mistake: off-by-one chunk index — the allgather starts from chunk r, which this rank has not
// finished, instead of chunk r + 1, the one its reduce-scatter completed.
// expect: 1
// expect-message: FAIL +2 ranks +--check --type int32 --impl ring: wrong results
// expect-message: diagnosis: allgather step 0: rank 0 sent chunk 0 to rank 1, expected chunk 1 — the chunk index is wrong
// expect-message: That is your allgather hole; .\./ringlab hint 05. gives its rule
// expect-no-message: allgather phase is missing
// expect-message: which hole: your allgather hole fails with the reference reduce-scatter
// expect-message: your reduce-scatter hole passes with the reference allgather
// ==== BEGIN EXERCISE: allgather ====
  for (int s = 0; s < n - 1; ++s) {
    tc.at("allgather", s);
    comm.sendrecv(chunk(r - s), next, chunk(r - s - 1), prev);
  }
// ==== END EXERCISE ====
