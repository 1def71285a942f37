  // ==== BEGIN EXERCISE: worker step ====
  tc.at("push", step);
  comm.send(grad, kServer, comm.rank());  // tag: which worker it is from
  tc.at("pull", step);
  comm.recv(params, kServer);
  // ==== END EXERCISE ====
