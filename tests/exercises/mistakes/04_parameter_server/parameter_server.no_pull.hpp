// mistake: a worker that pushes and never pulls — the server's send of the new parameters
// (400 kB, too big to be buffered) waits for a receive that never comes, while the worker
// already pushes its next gradient: a cycle of sends at different steps, not an ordering bug.
// expect: 3
// expect-message: rank 0 in parameter_server, pull step 0; rank 1 in parameter_server, push step 1
// expect-message: out of step: one of them made a missing or extra call
// expect-no-message: sendrecv
// ==== BEGIN EXERCISE: worker step ====
  tc.at("push", step);
  comm.send(grad, kServer);  // the bug: no comm.recv(params, kServer)
// ==== END EXERCISE ====
