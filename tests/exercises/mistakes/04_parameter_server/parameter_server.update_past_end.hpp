// mistake: the server's update loop runs one index too far — i <= size writes past the end of
// the parameters, which a View refuses in every build.
// expect: 4
// expect-message: your server step hole crashes with the reference worker step
// expect-message: error: index 100003 of a view of 100003 elements is past its end
// ==== BEGIN EXERCISE: server step ====
  tc.at("push", step);
  std::fill(sum.begin(), sum.end(), T(0));
  for (int w = 1; w <= workers; ++w) {
    comm.recv(incoming, w);
    ringlab::reduce_sum(sum, View<const T>(incoming));
  }
  for (std::size_t i = 0; i <= params.size(); ++i) params[i] -= lr * (sum[i] / T(workers));
  tc.at("pull", step);
  for (int w = 1; w <= workers; ++w) comm.send(params, w);
  // ==== END EXERCISE ====
