// mistake: forwarding before the receive is waited for — irecv in the round that brings the data,
// wait() after the last round: in between the rank sends on a buffer whose message has not
// arrived (on a fast network its old values go out, and nothing else would say so).
// expect: 1
// expect-message: error: rank 1's send to rank 3 uses memory that its irecv from rank 0 .* still writes into: a receive's buffer holds the message only after wait\(\)
// ==== BEGIN EXERCISE: binomial tree ====
  ringlab::Request incoming;
  bool receiving = false;
  for (int k = 0, mask = 1; mask < n; ++k, mask <<= 1) {
    tc.at("bcast-tree", k);
    if (v < mask) {
      if (v + mask < n) comm.send(buf, absolute(v + mask, root, n));
    } else if (v < 2 * mask) {
      incoming = comm.irecv(buf, absolute(v - mask, root, n));  // the bug: waited only after the loop
      receiving = true;
    }
  }
  if (receiving) comm.wait(incoming);
// ==== END EXERCISE ====
