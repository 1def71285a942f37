// mistake: forgetting the allgather phase — after the reduce-scatter each rank holds one
// finished chunk, and nobody passes the finished chunks round.
// expect: 1
// expect-message: wrong results
// expect-message: diagnosis: every rank holds exactly one finished chunk and partial sums elsewhere: the allgather phase is
// ==== BEGIN EXERCISE: allgather ====
// ==== END EXERCISE ====
