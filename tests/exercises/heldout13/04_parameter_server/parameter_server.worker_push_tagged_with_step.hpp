// mistake: the push is tagged with the step number while the server receives with the default tag 0, so from step 1 on the gradient never matches
  // ==== BEGIN EXERCISE: worker step ====
  tc.at("push", step);
  comm.send(grad, kServer, step);
  tc.at("pull", step);
  comm.recv(params, kServer);
  // ==== END EXERCISE ====
