// mistake: the reduce-scatter's chunk index counts up with the step — send r + s, add into
// r + s + 1 — while the data still goes to next: each chunk is the schedule's mirrored around r.
// expect: 1
// expect-message: each chunk rank [0-9]+ (sent|received) in the reduce-scatter lies as far from chunk [0-9]+ .the rank's own number. as the schedule's, on the other side — the chunk index runs the other way round the ring
// expect-no-message: the steps run backward
// ==== BEGIN EXERCISE: reduce-scatter ====
  for (int s = 0; s < n - 1; ++s) {
    tc.at("reduce-scatter", s);
    View<T> mine = chunk(r + s + 1);  // the bug: + s where - s belongs
    View<T> recv_buf = comm.scratch_like(mine);
    comm.sendrecv(chunk(r + s), next, recv_buf, prev);
    ringlab::reduce_sum(mine, recv_buf);
  }
// ==== END EXERCISE ====
