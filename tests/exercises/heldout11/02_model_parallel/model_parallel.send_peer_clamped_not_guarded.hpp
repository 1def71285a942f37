  // ==== BEGIN EXERCISE: send ====
  comm.send(View<const T>(&y, 1), std::min(r + 1, last));  // pass it on (never past the last rank)
  // ==== END EXERCISE ====
