// mistake: the receiver lands the data in scratch and adds it into buf (the reduce pattern of lessons 04/05) instead of receiving straight into buf: the old contents stay in
  // ==== BEGIN EXERCISE: binomial tree ====
  for (int k = 0, mask = 1; mask < n; ++k, mask <<= 1) {  // round k: the first 2^k ranks have it
    tc.at("bcast-tree", k);
    if (v < mask) {
      if (v + mask < n) comm.send(buf, absolute(v + mask, root, n));
    } else if (v < 2 * mask) {
      View<T> incoming = comm.scratch_like(buf);
      comm.recv(incoming, absolute(v - mask, root, n));
      ringlab::reduce_sum(buf, incoming);
    }
  }
  // ==== END EXERCISE ====
