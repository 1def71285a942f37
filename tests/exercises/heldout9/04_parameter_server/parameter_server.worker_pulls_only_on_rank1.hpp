  // ==== BEGIN EXERCISE: worker step ====
  tc.at("push", step);
  comm.send(grad, kServer);
  tc.at("pull", step);
  if (comm.rank() == 1) comm.recv(params, kServer);
  // ==== END EXERCISE ====
