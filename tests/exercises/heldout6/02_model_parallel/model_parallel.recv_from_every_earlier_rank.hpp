  // ==== BEGIN EXERCISE: receive ====
  for (int p = 0; p < r; ++p) comm.recv(View<T>(&y, 1), p);  // the sum of every rank before
  // ==== END EXERCISE ====
