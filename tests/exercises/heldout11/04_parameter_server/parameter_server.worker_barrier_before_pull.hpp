  // ==== BEGIN EXERCISE: worker step ====
  tc.at("push", step);
  comm.send(grad, kServer);
  comm.barrier();  // every worker has pushed: synchronous
  tc.at("pull", step);
  comm.recv(params, kServer);
  // ==== END EXERCISE ====
