// mistake: off-by-one chunk index — the allgather starts from chunk r, which this rank has not
// finished, instead of chunk r + 1, the one its reduce-scatter completed.
// expect: 1
// expect-message: FAIL +2 ranks +--check --type int32: wrong results
// expect-message: impl +count +type +placement +#wrong
// expect-message: first differing elements
// expect-message: diagnosis: no chunk is finished anywhere, every one holds a partial sum: the allgather passes chunks on
// expect-no-message: allgather phase is missing
// ==== BEGIN EXERCISE: allgather ====
  for (int s = 0; s < n - 1; ++s) {
    tc.at("allgather", s);
    comm.sendrecv(chunk(r - s), next, chunk(r - s - 1), prev);
  }
// ==== END EXERCISE ====
