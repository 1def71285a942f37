// mistake: receiving into scratch and adding it into the buffer — the reduce of lessons 04 and
// 05 where a broadcast replaces: what the buffer held before the call stays in the sum.
// expect: 1
// expect-message: FAIL +3 ranks +--check --type int32 --steps 0: wrong results
// expect-message: diagnosis: every message carried what the binomial tree sends, but rank 1 ends with its buffer holding .*: that is what arrived from rank 0 in round 0 \(root 0\) plus what the buffer held before the call, element by element — what arrived was added to the buffer, where it belongs in place of what was there
// expect-no-message: did not end up in it
// ==== BEGIN EXERCISE: binomial tree ====
  for (int k = 0, mask = 1; mask < n; ++k, mask <<= 1) {  // round k: the first 2^k ranks have it
    tc.at("bcast-tree", k);
    if (v < mask) {
      if (v + mask < n) comm.send(buf, absolute(v + mask, root, n));
    } else if (v < 2 * mask) {
      View<T> incoming = comm.scratch_like(buf);
      comm.recv(incoming, absolute(v - mask, root, n));
      ringlab::reduce_sum(buf, incoming);  // the bug: a broadcast copies what arrives
    }
  }
// ==== END EXERCISE ====
