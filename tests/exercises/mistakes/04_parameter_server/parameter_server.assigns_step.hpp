// mistake: the update assigns the step (params[i] = -lr * mean) where it must subtract it
// (params[i] -= lr * mean) — the step alone where the parameters plus it belong: their old values are lost.
// expect: 1
// expect-message: wrong results
// expect-message: diagnosis: the parameter server: step 0 is wrong: every wrong parameter is where the right move puts one that starts at 0 .*: the parameters' old values are gone — one possibility is that the update assigns the step \(=\) where it must subtract it from the parameters \(-=\)
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
