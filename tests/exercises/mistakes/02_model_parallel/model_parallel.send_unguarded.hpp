// mistake: passing the sum on from every rank — the send has no `r < last` test, so the last
// rank sends too, to rank n, which does not exist: MPI refuses the call (MPI_ERR_RANK). The
// diagnosis compares that call with the chain, which has the last rank make no send.
// expect: 4
// expect-message: stopped by an MPI error
// expect-message: diagnosis: forward step 1: rank 1 tried to send to rank 2, which does not exist .ranks 0..1.; the chain has rank 1 receive from rank 0 there .the rank before it., and no send
// expect-message: the condition around the send lets this rank through. That is your send hole
// expect-no-message: neighbour arithmetic
// ==== BEGIN EXERCISE: send ====
  (void)last;
  comm.send(View<const T>(&y, 1), r + 1);  // the bug: no `if (r < last)`
// ==== END EXERCISE ====
