// mistake: pulling twice — the worker receives the parameters a second time in the same step,
// though the server sends them once: the second receive waits forever.
// expect: 3
// expect-message: diagnosis: pull step 0: rank 1 waits to receive from rank 0; the parameter server has rank 1 make 1 call there, and this receive is call 2 of this rank there: it is made once too often
// expect-no-message: rank 0 is already at push step 1, past it: it skipped that send
// ==== BEGIN EXERCISE: worker step ====
  tc.at("push", step);
  comm.send(grad, kServer);
  tc.at("pull", step);
  comm.recv(params, kServer);
  comm.recv(params, kServer);  // the bug: the server sends once per step
// ==== END EXERCISE ====
