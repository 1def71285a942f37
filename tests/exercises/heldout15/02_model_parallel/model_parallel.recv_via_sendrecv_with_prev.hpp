// mistake: the receive is done with lesson 05's sendrecv (to and from r - 1, the same y on both sides) instead of a plain recv
  // ==== BEGIN EXERCISE: receive ====
  if (r > 0) comm.sendrecv(View<const T>(&y, 1), r - 1, View<T>(&y, 1), r - 1);  // wait for the partial sum of the ranks before
  // ==== END EXERCISE ====
