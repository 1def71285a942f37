// mistake: a non-blocking send never finished — the allgather isends its chunk and receives,
// but never waits for the send's request. The numbers come out right (small messages are
// delivered anyway); the request is left open, which the kit reports.
// expect: 1
// expect-message: message left behind: ring_allreduce returned with [0-9]+ non-blocking transfer.s. never finished .isend to rank [0-9] .tag 0, [0-9]+ bytes. in ring_allreduce, allgather step 0
// ==== BEGIN EXERCISE: allgather ====
  for (int s = 0; s < n - 1; ++s) {
    tc.at("allgather", s);
    auto sent = comm.isend(chunk(r + 1 - s), next);  // the bug: never comm.wait(sent)
    comm.recv(chunk(r - s), prev);
  }
// ==== END EXERCISE ====
