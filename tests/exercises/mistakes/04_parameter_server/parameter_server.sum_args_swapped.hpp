// mistake: reduce_sum's arguments swapped — what arrived is added into, the sum stays 0.
// expect: 1
// expect-message: wrong results
// expect-message: diagnosis: the parameter server: the server's parameters did not move in step 0, and its `sum` is still 0 .*nothing was added into `sum`
// ==== BEGIN EXERCISE: server step ====
  tc.at("push", step);
  std::fill(sum.begin(), sum.end(), T(0));
  for (int w = 1; w <= workers; ++w) {
    comm.recv(incoming, w);
    ringlab::reduce_sum(incoming, View<const T>(sum));
  }
  for (std::size_t i = 0; i < params.size(); ++i) params[i] -= lr * (sum[i] / T(workers));
  tc.at("pull", step);
  for (int w = 1; w <= workers; ++w) comm.send(params, w);
  // ==== END EXERCISE ====
