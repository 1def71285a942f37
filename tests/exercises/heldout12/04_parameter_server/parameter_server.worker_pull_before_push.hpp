// mistake: the worker pulls the parameters before it pushes its gradient (recv, then send)
  // ==== BEGIN EXERCISE: worker step ====
  tc.at("pull", step);
  comm.recv(params, kServer);
  tc.at("push", step);
  comm.send(grad, kServer);
  // ==== END EXERCISE ====
