// mistake: the worker pushes its gradient but never receives the new parameters (the pull is missing)
  // ==== BEGIN EXERCISE: worker step ====
  tc.at("push", step);
  comm.send(grad, kServer);
  tc.at("pull", step);
  // ==== END EXERCISE ====
