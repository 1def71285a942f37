// mistake: after the pull the worker sends the parameters back to the server as an acknowledgement, one message per step that no server receive expects (the next step's receive takes it as a gradient)
  // ==== BEGIN EXERCISE: worker step ====
  tc.at("push", step);
  comm.send(grad, kServer);
  tc.at("pull", step);
  comm.recv(params, kServer);
  comm.send(View<const T>(params), kServer);
  // ==== END EXERCISE ====
