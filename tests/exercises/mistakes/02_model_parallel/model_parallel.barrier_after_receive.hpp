// mistake: a barrier after the receive, so that "everyone has its partial sum before anyone adds"
// — rank 0 waits in it instead of sending, and rank 1 waits for rank 0's send.
// expect: 3
// expect-message: which hole: your receive hole hangs with the reference send
// expect-message: diagnosis: forward step 1: rank 1 waits to receive from rank 0, as the chain has it; .* but rank 0 is in no point-to-point call: it waits in comm.barrier, a call every rank makes
// expect-message: one possibility is comm.barrier called before that send
// ==== BEGIN EXERCISE: receive ====
  if (r > 0) comm.recv(View<T>(&y, 1), r - 1);  // wait for the partial sum of the ranks before
  comm.barrier();  // the bug: rank 0 has nothing to receive, and waits here instead of sending
// ==== END EXERCISE ====
