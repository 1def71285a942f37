// mistake: the update assigns the step (params[i] = -lr * mean) where it must subtract it
// (params[i] -= lr * mean) — from parameters 0 the first step is right, then the weights are lost.
// expect: 1
// expect-message: wrong results
// expect-message: diagnosis: the parameter server: step 0 is right and step 1 is wrong: [0-9]+ parameters after it, .* are how far they should have moved, not the parameters plus that: the update assigned the step to the parameters
// ==== BEGIN EXERCISE: server step ====
  tc.at("push", step);
  std::fill(sum.begin(), sum.end(), T(0));
  for (int w = 1; w <= workers; ++w) {
    comm.recv(incoming, w);
    ringlab::reduce_sum(sum, View<const T>(incoming));
  }
  for (std::size_t i = 0; i < params.size(); ++i) params[i] = -lr * (sum[i] / T(workers));  // the bug: -=
  tc.at("pull", step);
  for (int w = 1; w <= workers; ++w) comm.send(params, w);
// ==== END EXERCISE ====
