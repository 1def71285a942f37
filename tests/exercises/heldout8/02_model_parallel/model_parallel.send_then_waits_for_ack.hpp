  // ==== BEGIN EXERCISE: send ====
  if (r < last) {
    comm.send(View<const T>(&y, 1), r + 1);  // pass it on
    comm.recv(View<T>(&y, 1), r + 1);        // and wait until the next rank has it
  }
  // ==== END EXERCISE ====
