  // ==== BEGIN EXERCISE: worker step ====
  tc.at("push", step);
  if (step > 0) comm.send(grad, kServer);
  tc.at("pull", step);
  comm.recv(params, kServer);
  // ==== END EXERCISE ====
