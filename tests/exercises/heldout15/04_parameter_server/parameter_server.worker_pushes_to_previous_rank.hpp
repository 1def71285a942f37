// mistake: the worker pushes its gradient to rank - 1, as in lesson 02's chain, instead of to the server kServer
  // ==== BEGIN EXERCISE: worker step ====
  tc.at("push", step);
  comm.send(grad, comm.rank() - 1);
  tc.at("pull", step);
  comm.recv(params, kServer);
  // ==== END EXERCISE ====
