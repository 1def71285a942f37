// mistake: a worker that pushes and never pulls — the server's send of the new parameters
// (400 kB, too big to be buffered) waits for a receive that never comes, while the worker
// already pushes its next gradient: a cycle of sends at different steps, not an ordering bug.
// expect: 3
// expect-message: deadlock: rank 0 waits to send to 1; rank 1 waits to send to 0
// expect-message: rank 1 is already at push step 1, past it, in a later call of the parameter server: it returned from the call that has that receive without making it, so that receive is missing
// expect-no-message: sendrecv
// ==== BEGIN EXERCISE: worker step ====
  tc.at("push", step);
  comm.send(grad, kServer);  // the bug: no comm.recv(params, kServer)
// ==== END EXERCISE ====
