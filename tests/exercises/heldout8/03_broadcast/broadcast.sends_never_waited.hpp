  // ==== BEGIN EXERCISE: binomial tree ====
  std::vector<ringlab::Request> sends;  // non-blocking: a rank goes on to its next round at once
  for (int k = 0, mask = 1; mask < n; ++k, mask <<= 1) {  // round k: the first 2^k ranks have it
    tc.at("bcast-tree", k);
    if (v < mask) {
      if (v + mask < n) sends.push_back(comm.isend(buf, absolute(v + mask, root, n)));
    } else if (v < 2 * mask) {
      comm.recv(buf, absolute(v - mask, root, n));
    }
  }
  // ==== END EXERCISE ====
