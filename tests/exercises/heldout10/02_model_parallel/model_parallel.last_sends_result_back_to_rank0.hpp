  // ==== BEGIN EXERCISE: send ====
  if (r < last) comm.send(View<const T>(&y, 1), r + 1);  // pass it on
  else if (last > 0) comm.send(View<const T>(&y, 1), 0);  // the whole sum goes back to rank 0
  // ==== END EXERCISE ====
