// mistake: the "mean" divides the summed gradient by the number of parameters (params.size()) instead of the number of workers
  // ==== BEGIN EXERCISE: server step ====
  tc.at("push", step);
  std::fill(sum.begin(), sum.end(), T(0));
  for (int w = 1; w <= workers; ++w) {
    comm.recv(incoming, w);
    ringlab::reduce_sum(sum, View<const T>(incoming));
  }
  for (std::size_t i = 0; i < params.size(); ++i) params[i] -= lr * (sum[i] / T(params.size()));
  tc.at("pull", step);
  for (int w = 1; w <= workers; ++w) comm.send(params, w);
  // ==== END EXERCISE ====
