// mistake: the worker skips the pull at step 0 (it thinks it already has the parameters then), so every later pull takes the previous step's parameters
  // ==== BEGIN EXERCISE: worker step ====
  tc.at("push", step);
  comm.send(grad, kServer);
  tc.at("pull", step);
  if (step > 0) comm.recv(params, kServer);
  // ==== END EXERCISE ====
