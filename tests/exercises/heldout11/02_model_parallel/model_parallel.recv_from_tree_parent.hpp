  // ==== BEGIN EXERCISE: receive ====
  if (r > 0) comm.recv(View<T>(&y, 1), (r - 1) / 2);  // wait for the partial sum of the ranks before
  // ==== END EXERCISE ====
