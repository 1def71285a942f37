// mistake: the View's second argument is taken for an index (element 0 of y), so the receive posts a buffer of 0 elements for a 1-element message
  // ==== BEGIN EXERCISE: receive ====
  if (r > 0) comm.recv(View<T>(&y, 0), r - 1);  // wait for the partial sum of the ranks before
  // ==== END EXERCISE ====
