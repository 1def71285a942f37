// mistake: the View's length is given in bytes (sizeof(T)) as for memcpy, not in elements: the message is sizeof(T) elements long where the receiver expects one
  // ==== BEGIN EXERCISE: send ====
  if (r < last) comm.send(View<const T>(&y, sizeof(T)), r + 1);  // pass it on
  // ==== END EXERCISE ====
