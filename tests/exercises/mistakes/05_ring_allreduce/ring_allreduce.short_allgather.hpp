// mistake: one allgather step too few — the loop stops at s < n - 2, so the finished chunk that
// would arrive last never does (on 2 ranks the allgather does nothing at all).
// expect: 1
// expect-message: diagnosis: allgather step 0: rank 0 never sends chunk 1 to rank 1 — the allgather phase is missing
// expect-message: diagnosis: allgather step 1: rank 0 never sends chunk 0 to rank 1 — a send is missing: rank 0 sent 3 messages to rank 1 in this call, the ring sends 4
// ==== BEGIN EXERCISE: allgather ====
  for (int s = 0; s < n - 2; ++s) {  // the bug: n - 1 steps, not n - 2
    tc.at("allgather", s);
    comm.sendrecv(chunk(r + 1 - s), next, chunk(r - s), prev);
  }
// ==== END EXERCISE ====
