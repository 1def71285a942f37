// mistake: a worker that pulls before it pushes — it waits for parameters the server only sends once every gradient is in.
// expect: 3
// expect-message: deadlock: rank 0 waits to receive from 1; rank 1 waits to receive from 0
// expect-message: rank 1 is already at pull step 0, past it: it skipped that send, or makes it later — look at the order of its calls. That is your worker step hole
// expect-no-message: reordering the calls will not help
// ==== BEGIN EXERCISE: worker step ====
  tc.at("pull", step);
  comm.recv(params, kServer);  // the bug: the receive first; the server is waiting for this gradient
  tc.at("push", step);
  comm.send(grad, kServer);
// ==== END EXERCISE ====
