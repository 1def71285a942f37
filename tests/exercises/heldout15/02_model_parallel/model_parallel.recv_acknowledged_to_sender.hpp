// mistake: after receiving the partial sum, each rank sends it back to r - 1 as an "acknowledgement" nobody receives
  // ==== BEGIN EXERCISE: receive ====
  if (r > 0) {
    comm.recv(View<T>(&y, 1), r - 1);  // wait for the partial sum of the ranks before
    comm.send(View<const T>(&y, 1), r - 1);
  }
  // ==== END EXERCISE ====
