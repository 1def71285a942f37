// mistake: the server steps with the sum of the gradients — not their mean.
// expect: 1
// expect-message: wrong results
// expect-message: parameter server: .*expected .* got
// expect-message: diagnosis: the parameter server: every parameter moved n = [0-9]+ times as far as it should in step 0.*the SUM of the gradients
// ==== BEGIN EXERCISE: server step ====
  tc.at("push", step);
  std::fill(sum.begin(), sum.end(), T(0));
  for (int w = 1; w <= workers; ++w) {
    comm.recv(incoming, w);
    ringlab::reduce_sum(sum, View<const T>(incoming));
  }
  for (std::size_t i = 0; i < params.size(); ++i) params[i] -= lr * sum[i];  // the bug: not / workers
  tc.at("pull", step);
  for (int w = 1; w <= workers; ++w) comm.send(params, w);
// ==== END EXERCISE ====
