  // ==== BEGIN EXERCISE: worker step ====
  tc.at("pull", step);
  comm.send(grad, kServer);
  tc.at("push", step);
  comm.recv(params, kServer);
  // ==== END EXERCISE ====
