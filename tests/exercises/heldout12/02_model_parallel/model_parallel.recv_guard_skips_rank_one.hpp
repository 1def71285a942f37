// mistake: the receive guard is r > 1 instead of r > 0, so rank 1 never takes rank 0's partial sum
  // ==== BEGIN EXERCISE: receive ====
  if (r > 1) comm.recv(View<T>(&y, 1), r - 1);  // wait for the partial sum of the ranks before
  // ==== END EXERCISE ====
