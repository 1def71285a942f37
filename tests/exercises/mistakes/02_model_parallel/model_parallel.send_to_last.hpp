// mistake: sending straight to the last rank — every rank sends its partial sum to the last
// rank instead of to r + 1; rank 1 then waits for a message rank 0 sent elsewhere.
// expect: 3
// expect-message: diagnosis: forward step 1: rank 1 waits to receive from rank 0, as the chain has it; the chain has rank 0 send to rank 1 in forward step 0
// expect-message: Rank 0 sent rank 2 a message .* that no receive took, and rank 1 holds none from it: rank 0's message went to rank 2. The chain has rank 0 make no send to rank 2: the peer of rank 0's send is wrong. That is your send hole
// expect-no-message: it never made that send
// expect-no-message: out of step
// ==== BEGIN EXERCISE: send ====
  if (r < last) comm.send(View<const T>(&y, 1), last);  // the bug: last, not r + 1
// ==== END EXERCISE ====
