// mistake: the server zeroing its parameters at the start of a step where the sum belongs — from
// a model that starts at 0 this walks the right path (the sum, never reset, holds every gradient so
// far); from any other start it does not.
// expect: 1
// expect-message: which hole: your server step hole fails with the reference worker step
// expect-message: the parameters' old values are gone — .*; another, that the parameters were set to 0 before the update
// ==== BEGIN EXERCISE: server step ====
  tc.at("push", step);
  std::fill(params.begin(), params.end(), T(0));  // the bug: the sum is the scratch to clear
  for (int w = 1; w <= workers; ++w) {
    comm.recv(incoming, w);
    ringlab::reduce_sum(sum, View<const T>(incoming));
  }
  for (std::size_t i = 0; i < params.size(); ++i) params[i] -= lr * (sum[i] / T(workers));
  tc.at("pull", step);
  for (int w = 1; w <= workers; ++w) comm.send(params, w);
// ==== END EXERCISE ====
