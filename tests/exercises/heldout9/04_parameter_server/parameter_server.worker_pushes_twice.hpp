  // ==== BEGIN EXERCISE: worker step ====
  tc.at("push", step);
  comm.send(grad, kServer);
  comm.send(grad, kServer);
  tc.at("pull", step);
  comm.recv(params, kServer);
  // ==== END EXERCISE ====
