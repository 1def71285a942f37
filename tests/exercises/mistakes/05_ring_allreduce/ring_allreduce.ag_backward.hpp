// mistake: running the allgather's steps backward — s from n - 2 down to 0: each step's chunk
// index is right for its s, but a rank forwards chunks before it has received them.
// expect: 1
// expect-message: diagnosis: allgather step 0: rank 0 sent chunk [0-9]+ to rank 1, expected chunk [0-9]+: rank 0 sent the allgather's chunks in the schedule's order turned round .* the steps run backward
// expect-no-message: the chunk index is wrong
// ==== BEGIN EXERCISE: allgather ====
  for (int s = n - 2; s >= 0; --s) {  // the bug: the steps in reverse
    tc.at("allgather", s);
    comm.sendrecv(chunk(r + 1 - s), next, chunk(r - s), prev);
  }
// ==== END EXERCISE ====
