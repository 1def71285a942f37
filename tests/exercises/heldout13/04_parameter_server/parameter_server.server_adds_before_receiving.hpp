// mistake: inside the receive loop the add comes before the receive, so each worker's add uses what the previous receive left in incoming: the first add is stale, the last worker's gradient is never added
  // ==== BEGIN EXERCISE: server step ====
  tc.at("push", step);
  std::fill(sum.begin(), sum.end(), T(0));
  for (int w = 1; w <= workers; ++w) {
    ringlab::reduce_sum(sum, View<const T>(incoming));
    comm.recv(incoming, w);
  }
  for (std::size_t i = 0; i < params.size(); ++i) params[i] -= lr * (sum[i] / T(workers));
  tc.at("pull", step);
  for (int w = 1; w <= workers; ++w) comm.send(params, w);
  // ==== END EXERCISE ====
