  // ==== BEGIN EXERCISE: receive ====
  comm.recv(View<T>(&y, 1), (r - 1 + comm.size()) % comm.size());  // wait for the partial sum of the ranks before
  // ==== END EXERCISE ====
