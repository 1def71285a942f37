  // ==== BEGIN EXERCISE: server step ====
  tc.at("push", step);
  std::fill(sum.begin(), sum.end(), T(0));
  for (int w = 1; w <= workers; ++w) {
    comm.recv(incoming, w);
    ringlab::reduce_sum(sum, View<const T>(incoming));
  }
  for (int i = 0; i < workers; ++i) params[i] -= lr * (sum[i] / T(workers));
  tc.at("pull", step);
  for (int w = 1; w <= workers; ++w) comm.send(params, w);
  // ==== END EXERCISE ====
