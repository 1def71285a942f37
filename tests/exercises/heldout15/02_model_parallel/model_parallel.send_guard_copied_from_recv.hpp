// mistake: the send's guard is copied from the receive hole (r > 0 instead of r < last)
  // ==== BEGIN EXERCISE: send ====
  if (r > 0) comm.send(View<const T>(&y, 1), r + 1);  // pass it on
  // ==== END EXERCISE ====
