  // ==== BEGIN EXERCISE: worker step ====
  tc.at("push", step);
  comm.send(grad, kServer);
  tc.at("pull", step);
  View<T> fresh = comm.scratch_like(params);  // the new parameters land here
  comm.recv(fresh, kServer);
  // ==== END EXERCISE ====
