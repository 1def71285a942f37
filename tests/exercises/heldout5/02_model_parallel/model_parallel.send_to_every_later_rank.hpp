  // ==== BEGIN EXERCISE: send ====
  for (int to = r + 1; to <= last; ++to) comm.send(View<const T>(&y, 1), to);  // pass it on
  // ==== END EXERCISE ====
