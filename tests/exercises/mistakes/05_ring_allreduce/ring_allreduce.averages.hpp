// mistake: averaging at the end — the allgather divides the finished buffer by n, as the
// data-parallel step will, but the ring allreduce hands on the sum.
// expect: 1
// expect-message: which hole: your allgather hole fails
// expect-message: 0 everywhere — one possibility is that nothing was written there; another, that it was scaled by a factor that is 0
// ==== BEGIN EXERCISE: allgather ====
  for (int s = 0; s < n - 1; ++s) {
    tc.at("allgather", s);
    comm.sendrecv(chunk(r + 1 - s), next, chunk(r - s), prev);
  }
  ringlab::scale(out, static_cast<T>(1.0 / n));  // the bug: a mean, where the ring hands on the sum
// ==== END EXERCISE ====
