// mistake: the server divides the sum by the number of ranks — the mean is over the workers, and the server is not one.
// expect: 1
// expect-message: wrong results
// expect-message: diagnosis: the parameter server: every parameter moved [0-9]+/[0-9]+ as far as it should in step 0.*: the sum of [0-9]+ gradients was divided by [0-9]+
// ==== BEGIN EXERCISE: server step ====
  tc.at("push", step);
  std::fill(sum.begin(), sum.end(), T(0));
  for (int w = 1; w <= workers; ++w) {
    comm.recv(incoming, w);
    ringlab::reduce_sum(sum, View<const T>(incoming));
  }
  for (std::size_t i = 0; i < params.size(); ++i) params[i] -= lr * (sum[i] / T(comm.size()));  // the bug
  tc.at("pull", step);
  for (int w = 1; w <= workers; ++w) comm.send(params, w);
// ==== END EXERCISE ====
