// mistake: the server's mean taken over the parameters' elements (sum.size()) where it divides by
// the number of workers — each step moves a hundred-thousandth as far.
// expect: 1
// expect-message: diagnosis: the parameter server: every parameter moved .* = n / size = 1 / [0-9]+ times as far as it should in step 0 .*: the sum of the 1 gradient was divided by the number of parameters
// ==== BEGIN EXERCISE: server step ====
  tc.at("push", step);
  std::fill(sum.begin(), sum.end(), T(0));
  for (int w = 1; w <= workers; ++w) {
    comm.recv(incoming, w);
    ringlab::reduce_sum(sum, View<const T>(incoming));
  }
  for (std::size_t i = 0; i < params.size(); ++i) params[i] -= lr * (sum[i] / T(sum.size()));  // the bug
  tc.at("pull", step);
  for (int w = 1; w <= workers; ++w) comm.send(params, w);
// ==== END EXERCISE ====
