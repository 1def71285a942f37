// mistake: the receive is guarded by "is there more than one rank" (last > 0) instead of "is there a rank before me" (r > 0), so rank 0 also receives, from rank -1
  // ==== BEGIN EXERCISE: receive ====
  if (last > 0) comm.recv(View<T>(&y, 1), r - 1);  // wait for the partial sum of the ranks before
  // ==== END EXERCISE ====
