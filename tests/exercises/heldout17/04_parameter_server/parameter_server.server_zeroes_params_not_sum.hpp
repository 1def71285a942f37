// mistake: the server zeroes params instead of sum at the start of the step
  // ==== BEGIN EXERCISE: server step ====
  tc.at("push", step);
  std::fill(params.begin(), params.end(), T(0));
  for (int w = 1; w <= workers; ++w) {
    comm.recv(incoming, w);
    ringlab::reduce_sum(sum, View<const T>(incoming));
  }
  for (std::size_t i = 0; i < params.size(); ++i) params[i] -= lr * (sum[i] / T(workers));
  tc.at("pull", step);
  for (int w = 1; w <= workers; ++w) comm.send(params, w);
  // ==== END EXERCISE ====
