// mistake: the server answers each worker as soon as its gradient arrives (as the async server does), so workers get the parameters from before the update
  // ==== BEGIN EXERCISE: server step ====
  tc.at("push", step);
  std::fill(sum.begin(), sum.end(), T(0));
  for (int w = 1; w <= workers; ++w) {
    comm.recv(incoming, w);
    ringlab::reduce_sum(sum, View<const T>(incoming));
    comm.send(params, w);  // answer the worker whose gradient just arrived
  }
  for (std::size_t i = 0; i < params.size(); ++i) params[i] -= lr * (sum[i] / T(workers));
  tc.at("pull", step);
  // ==== END EXERCISE ====
