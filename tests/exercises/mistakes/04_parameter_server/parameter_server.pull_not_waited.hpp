// mistake: a pull never waited for — the worker posts comm.irecv for the parameters and goes on
// without comm.wait, so it computes its next gradient from parameters that have not arrived.
// expect: 1
// expect-message: message left behind: parameter_server returned with 1 non-blocking transfer.s. never finished .irecv from rank 0
// expect-message: diagnosis: a non-blocking transfer was never finished .message left behind, above., and the wrong values follow from it
// expect-no-message: the server sends them before the SGD step
// ==== BEGIN EXERCISE: worker step ====
  tc.at("push", step);
  comm.send(grad, kServer);
  tc.at("pull", step);
  auto pulled = comm.irecv(params, kServer);  // the bug: never comm.wait(pulled)
  (void)pulled;
// ==== END EXERCISE ====
