// mistake: the worker pushes its parameters too, after its gradient (as the asynchronous worker sends its version along); the server never receives them
  // ==== BEGIN EXERCISE: worker step ====
  tc.at("push", step);
  comm.send(grad, kServer);
  comm.send(View<const T>(params), kServer);
  tc.at("pull", step);
  comm.recv(params, kServer);
  // ==== END EXERCISE ====
