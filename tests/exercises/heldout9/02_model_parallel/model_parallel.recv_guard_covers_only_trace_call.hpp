  // ==== BEGIN EXERCISE: receive ====
  if (r > 0)
    tc.at("forward", r);
    comm.recv(View<T>(&y, 1), r - 1);  // wait for the partial sum of the ranks before
  // ==== END EXERCISE ====
