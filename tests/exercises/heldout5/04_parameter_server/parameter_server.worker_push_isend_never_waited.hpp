  // ==== BEGIN EXERCISE: worker step ====
  tc.at("push", step);
  ringlab::Request push = comm.isend(grad, kServer);  // no need to block: the pull below waits anyway
  tc.at("pull", step);
  comm.recv(params, kServer);
  // ==== END EXERCISE ====
