// mistake: the worker sends the parameters back to the server after the pull, as an
// acknowledgement — one message per step that no server receive expects.
// expect: 3
// expect-message: which hole: your worker step hole hangs with the reference server step
// expect-message: diagnosis: pull step 0: rank 1 started 2 transfers there before it went on, where the parameter server has it make 1 call: one too many
// expect-message: That is your worker step hole
// expect-no-message: it skipped that receive, or makes it later
// ==== BEGIN EXERCISE: worker step ====
  tc.at("push", step);
  comm.send(grad, kServer);
  tc.at("pull", step);
  comm.recv(params, kServer);
  comm.send(View<const T>(params), kServer);  // the bug: nothing receives it
// ==== END EXERCISE ====
