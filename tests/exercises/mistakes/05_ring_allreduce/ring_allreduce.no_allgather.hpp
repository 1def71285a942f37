// mistake: forgetting the allgather phase — after the reduce-scatter each rank holds one
// finished chunk, and nobody passes the finished chunks round.
// expect: 1
// expect-message: wrong results
// expect-message: diagnosis: allgather step 0: rank 0 never sends chunk 1 to rank 1 — the allgather phase is missing: rank 0 sent nothing in it
// ==== BEGIN EXERCISE: allgather ====
// ==== END EXERCISE ====
