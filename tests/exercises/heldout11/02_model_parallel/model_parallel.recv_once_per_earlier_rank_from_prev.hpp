  // ==== BEGIN EXERCISE: receive ====
  for (int i = 0; i < r; ++i) comm.recv(View<T>(&y, 1), r - 1);  // one partial sum per rank before me
  // ==== END EXERCISE ====
