// mistake: the push leaves out the last element of grad (the "version" slot of the asynchronous messages below), so the server's last incoming element is never refreshed
  // ==== BEGIN EXERCISE: worker step ====
  tc.at("push", step);
  comm.send(grad.sub(0, grad.size() - 1), kServer);
  tc.at("pull", step);
  comm.recv(params, kServer);
  // ==== END EXERCISE ====
