// held-out mistake (README.md): only the holes that differ from the solution;
// scripts/ringlab-exercise fill SOLUTION THIS OUT makes the whole header.
// ==== BEGIN EXERCISE: worker step ====
  tc.at("pull", step);
  comm.recv(params, kServer);
  tc.at("push", step);
  comm.send(grad, kServer);
// ==== END EXERCISE ====
