// mistake: the partial sum is received into a local temporary that goes out of scope, so y stays 0
  // ==== BEGIN EXERCISE: receive ====
  if (r > 0) { T incoming = 0; comm.recv(View<T>(&incoming, 1), r - 1); }  // wait for the partial sum of the ranks before
  // ==== END EXERCISE ====
