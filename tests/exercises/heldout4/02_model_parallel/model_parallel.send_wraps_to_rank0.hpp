// held-out mistake (README.md): only the holes that differ from the solution;
// scripts/ringlab-exercise fill SOLUTION THIS OUT makes the whole header.
// ==== BEGIN EXERCISE: send ====
  comm.send(View<const T>(&y, 1), r == last ? 0 : r + 1);  // pass it on
// ==== END EXERCISE ====
