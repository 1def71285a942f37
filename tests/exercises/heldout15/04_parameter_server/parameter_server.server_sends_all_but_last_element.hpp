// mistake: copied from the asynchronous server's message layout (S = size - 1, a version slot at the end): the server sends back params.sub(0, size - 1), leaving out the last parameter
  // ==== BEGIN EXERCISE: server step ====
  tc.at("push", step);
  std::fill(sum.begin(), sum.end(), T(0));
  for (int w = 1; w <= workers; ++w) {
    comm.recv(incoming, w);
    ringlab::reduce_sum(sum, View<const T>(incoming));
  }
  for (std::size_t i = 0; i < params.size(); ++i) params[i] -= lr * (sum[i] / T(workers));
  tc.at("pull", step);
  for (int w = 1; w <= workers; ++w) comm.send(params.sub(0, params.size() - 1), w);
  // ==== END EXERCISE ====
