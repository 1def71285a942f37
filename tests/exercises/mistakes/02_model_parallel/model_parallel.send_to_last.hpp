// mistake: sending straight to the last rank — every rank sends its partial sum to the last
// rank instead of to r + 1; rank 1 then waits for a message rank 0 sent elsewhere.
// expect: 3
// expect-message: diagnosis: forward step 1: rank 1 waits to receive from rank 0, as the chain has it; the chain has rank 0 send to rank 1 in forward step 0
// expect-message: it never made that send .or made it to another rank. — look at which ranks make it .the condition around it. and to whom
// expect-no-message: out of step
// ==== BEGIN EXERCISE: send ====
  if (r < last) comm.send(View<const T>(&y, 1), last);  // the bug: last, not r + 1
// ==== END EXERCISE ====
