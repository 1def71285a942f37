// mistake: passes on `received` (what came from r - 1) instead of y, dropping this rank's own terms
  // ==== BEGIN EXERCISE: send ====
  if (r < last) comm.send(View<const T>(&received, 1), r + 1);  // pass it on
  // ==== END EXERCISE ====
