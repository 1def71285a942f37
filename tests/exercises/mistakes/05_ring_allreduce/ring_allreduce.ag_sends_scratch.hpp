// mistake: the allgather sends from the communicator's scratch, where the reduce-scatter's
// arrivals landed, not from the finished chunk of the buffer.
// expect: 1
// expect-message: which hole: your allgather hole fails with the reference reduce-scatter
// expect-message: diagnosis: allgather step 0: rank [0-9] sent chunk [0-9] to rank [0-9] holding .*: that is what rank [0-9] received in reduce-scatter step [0-9] \(from rank [0-9]\), as it arrived — one possibility is that the send reads the memory that message landed in
// expect-no-message: what the rank received never reached this buffer —
// ==== BEGIN EXERCISE: allgather ====
  for (int s = 0; s < n - 1; ++s) {
    tc.at("allgather", s);
    comm.sendrecv(comm.scratch_like(chunk(r + 1 - s)), next, chunk(r - s), prev);  // the bug
  }
// ==== END EXERCISE ====
