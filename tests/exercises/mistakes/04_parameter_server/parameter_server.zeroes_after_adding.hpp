// mistake: zeroing `sum` after the receive loop instead of before it — the update reads a sum of 0
// and the parameters never move.
// expect: 1
// expect-message: its `sum` is still 0 .*it held nothing when the update read it — one possibility is that nothing was added into `sum`
// expect-message: another, that `sum` was set to 0 after the adds, before the update read it
  // ==== BEGIN EXERCISE: server step ====
  tc.at("push", step);
  for (int w = 1; w <= workers; ++w) {
    comm.recv(incoming, w);
    ringlab::reduce_sum(sum, View<const T>(incoming));
  }
  std::fill(sum.begin(), sum.end(), T(0));  // the bug: after the adds, not before them
  for (std::size_t i = 0; i < params.size(); ++i) params[i] -= lr * (sum[i] / T(workers));
  tc.at("pull", step);
  for (int w = 1; w <= workers; ++w) comm.send(params, w);
  // ==== END EXERCISE ====
