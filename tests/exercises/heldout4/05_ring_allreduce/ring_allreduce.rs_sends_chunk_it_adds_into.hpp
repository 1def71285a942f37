// held-out mistake (README.md): only the holes that differ from the solution;
// scripts/ringlab-exercise fill SOLUTION THIS OUT makes the whole header.
// ==== BEGIN EXERCISE: reduce-scatter ====
  for (int s = 0; s < n - 1; ++s) {
    tc.at("reduce-scatter", s);
    View<T> mine = chunk(r - s - 1);
    View<T> recv_buf = comm.scratch_like(mine);  // scratch the size of mine, in the same memory
    comm.sendrecv(mine, next, recv_buf, prev);
    ringlab::reduce_sum(mine, recv_buf);
  }
// ==== END EXERCISE ====
