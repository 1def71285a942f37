  // ==== BEGIN EXERCISE: worker step ====
  tc.at("push", step);
  comm.send(grad, kServer);
  tc.at("pull", step);
  ringlab::Request pull = comm.irecv(params, kServer);
  // ==== END EXERCISE ====
