// mistake: the worker's pull waits for tag 1 ('the second message of the step'), while the server sends with tag 0
  // ==== BEGIN EXERCISE: worker step ====
  tc.at("push", step);
  comm.send(grad, kServer);
  tc.at("pull", step);
  comm.recv(params, kServer, 1);  // the step's second message
  // ==== END EXERCISE ====
