  // ==== BEGIN EXERCISE: receive ====
  if (r < last) comm.recv(View<T>(&y, 1), r - 1);  // wait for the partial sum of the ranks before
  // ==== END EXERCISE ====
