  // ==== BEGIN EXERCISE: worker step ====
  const int server = comm.size() - 1;  // the server: the rank after all the workers
  tc.at("push", step);
  comm.send(grad, server);
  tc.at("pull", step);
  comm.recv(params, server);
  // ==== END EXERCISE ====
