// mistake: the server steps once per worker, inside its send loop — worker w is sent the
// parameters after w steps.
// expect: 1
// expect-message: wrong results
// expect-message: diagnosis: the server: in step 0 worker w's parameters moved w/[0-9]+ of the server's move .*inside the loop that sends
// ==== BEGIN EXERCISE: server step ====
  tc.at("push", step);
  std::fill(sum.begin(), sum.end(), T(0));
  for (int w = 1; w <= workers; ++w) {
    comm.recv(incoming, w);
    ringlab::reduce_sum(sum, View<const T>(incoming));
  }
  tc.at("pull", step);
  for (int w = 1; w <= workers; ++w) {
    for (std::size_t i = 0; i < params.size(); ++i) params[i] -= lr * (sum[i] / T(workers));
    comm.send(params, w);
  }
  // ==== END EXERCISE ====
