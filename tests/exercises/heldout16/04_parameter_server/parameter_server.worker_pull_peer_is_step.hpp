// mistake: the pull names the step where the peer belongs (comm.recv(params, step), as in tc.at("pull", step)): right at step 0, where step == kServer, then a worker waits for a worker or itself
  // ==== BEGIN EXERCISE: worker step ====
  tc.at("push", step);
  comm.send(grad, kServer);
  tc.at("pull", step);
  comm.recv(params, step);
  // ==== END EXERCISE ====
