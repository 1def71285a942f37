// mistake: a worker that pushes and never pulls — the server's send of the new parameters
// (400 kB, too big to be buffered) waits for a receive that never comes.
// expect: 3
// expect-message: rank 0 waits to send .* to rank 1, which is not in a point-to-point call: it never posts the matching receive
// expect-message: a receive missing on rank 1
// ==== BEGIN EXERCISE: worker step ====
  tc.at("push", step);
  comm.send(grad, kServer);  // the bug: no comm.recv(params, kServer)
// ==== END EXERCISE ====
