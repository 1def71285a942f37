// mistake: every rank but the last sends its sum straight to rank `last` instead of to r + 1
  // ==== BEGIN EXERCISE: send ====
  if (r < last) comm.send(View<const T>(&y, 1), last);  // pass it on
  // ==== END EXERCISE ====
