// mistake: the mean's 1 / workers in integer arithmetic — 0 for 2 or more workers, so the server
// never moves the parameters (with one worker it is 1, and that run passes).
// expect: 1
// expect-message: k = 0 on 2 workers: k = 1/n in integers for every number of workers n — 1 / n computed in integers
// ==== BEGIN EXERCISE: server step ====
  tc.at("push", step);
  std::fill(sum.begin(), sum.end(), T(0));
  for (int w = 1; w <= workers; ++w) {
    comm.recv(incoming, w);
    ringlab::reduce_sum(sum, View<const T>(incoming));
  }
  for (std::size_t i = 0; i < params.size(); ++i) params[i] -= lr * (sum[i] * T(1 / workers));  // the bug: int 1 / 2 is 0
  tc.at("pull", step);
  for (int w = 1; w <= workers; ++w) comm.send(params, w);
// ==== END EXERCISE ====
