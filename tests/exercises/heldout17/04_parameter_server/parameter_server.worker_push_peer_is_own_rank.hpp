// mistake: the worker's push names its own rank as the peer (read as 'from me'), not the server
  // ==== BEGIN EXERCISE: worker step ====
  tc.at("push", step);
  comm.send(grad, comm.rank());
  tc.at("pull", step);
  comm.recv(params, kServer);
  // ==== END EXERCISE ====
