  // ==== BEGIN EXERCISE: receive ====
  if (r > 0) {
    T y = 0;
    comm.recv(View<T>(&y, 1), r - 1);  // wait for the partial sum of the ranks before
  }
  // ==== END EXERCISE ====
