  // ==== BEGIN EXERCISE: binomial tree ====
  ringlab::Request incoming;  // posted in the round that brings the data, finished at the end
  bool receiving = false;
  for (int k = 0, mask = 1; mask < n; ++k, mask <<= 1) {  // round k: the first 2^k ranks have it
    tc.at("bcast-tree", k);
    if (v < mask) {
      if (v + mask < n) comm.send(buf, absolute(v + mask, root, n));
    } else if (v < 2 * mask) {
      incoming = comm.irecv(buf, absolute(v - mask, root, n));
      receiving = true;
    }
  }
  if (receiving) comm.wait(incoming);
  // ==== END EXERCISE ====
