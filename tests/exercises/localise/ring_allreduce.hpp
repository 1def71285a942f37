// Which hole, the whole way (tests/exercises/CMakeLists.txt, "Which hole"): a learner's exercise 05
// with both holes written. The reduce-scatter swaps the chunk it sends and the one it adds into
// (wrong); the allgather is right but not written as the solution's, so the check must build it
// with the reference reduce-scatter, find that it passes, and keep every message off it.
// ==== BEGIN EXERCISE: reduce-scatter ====
  for (int s = 0; s < n - 1; ++s) {
    tc.at("reduce-scatter", s);
    View<T> mine = chunk(r - s);  // the bug: r - s is the chunk to send, r - s - 1 the one to add into
    View<T> recv_buf = comm.scratch_like(mine);
    comm.sendrecv(chunk(r - s - 1), next, recv_buf, prev);
    ringlab::reduce_sum(mine, recv_buf);
  }
// ==== END EXERCISE ====
// ==== BEGIN EXERCISE: allgather ====
  int finished = r + 1;  // the chunk the reduce-scatter finished here; each step passes on the last one got
  for (int s = 0; s < n - 1; ++s) {
    tc.at("allgather", s);
    comm.sendrecv(chunk(finished), next, chunk(finished - 1), prev);
    finished -= 1;
  }
// ==== END EXERCISE ====
