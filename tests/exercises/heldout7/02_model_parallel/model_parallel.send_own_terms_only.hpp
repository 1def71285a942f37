  // ==== BEGIN EXERCISE: send ====
  if (r < last) {
    const T mine = y - received;  // this rank's part of the sum
    comm.send(View<const T>(&mine, 1), r + 1);  // pass it on
  }
  // ==== END EXERCISE ====
