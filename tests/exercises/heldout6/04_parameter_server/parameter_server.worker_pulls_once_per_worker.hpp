  // ==== BEGIN EXERCISE: worker step ====
  tc.at("push", step);
  comm.send(grad, kServer);
  tc.at("pull", step);
  for (int w = 1; w < comm.size(); ++w) comm.recv(params, kServer);
  // ==== END EXERCISE ====
