// mistake: forgetting to pass the sum on — nobody sends, so rank 1 waits forever for rank 0.
// expect: 3
// expect-message: diagnosis: forward step 1: rank 1 waits to receive from rank 0, as the chain has it; the chain has rank 0 send to rank 1 in forward step 0 .the rank after it., but rank 0 has already returned from the chain .it waits in [a-z_.]+.: it left without making that send, its first call there — one possibility is a return before it
// expect-message: That is your send hole
// ==== BEGIN EXERCISE: send ====
  (void)last;  // the bug: no comm.send(View<const T>(&y, 1), r + 1)
// ==== END EXERCISE ====
