// held-out mistake (README.md): only the holes that differ from the solution;
// scripts/ringlab-exercise fill SOLUTION THIS OUT makes the whole header.
// ==== BEGIN EXERCISE: average ====
  ringlab::ring_allreduce_fast<float>(comm, grad, grad);
  ringlab::scale(grad, 1.0f / 3.0f);
// ==== END EXERCISE ====
