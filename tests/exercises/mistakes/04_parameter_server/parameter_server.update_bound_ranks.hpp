// mistake: the update loop bounded by the number of ranks — a count in scope that looks like a
// size: only the first few parameters ever move.
// expect: 1
// expect-message: which hole: your server step hole fails
// expect-message: step 0 is wrong; how far it moved: \[0, 2\) moved as they should, and not one from \[2\] to the end .* moved at all: the update stopped at \[2\] — one possibility is a loop over the parameters bounded by 2
// ==== BEGIN EXERCISE: server step ====
  tc.at("push", step);
  std::fill(sum.begin(), sum.end(), T(0));
  for (int w = 1; w <= workers; ++w) {
    comm.recv(incoming, w);
    ringlab::reduce_sum(sum, View<const T>(incoming));
  }
  const auto ranks = static_cast<std::size_t>(comm.size());
  for (std::size_t i = 0; i < ranks; ++i) params[i] -= lr * (sum[i] / T(workers));  // the bug: not params.size()
  tc.at("pull", step);
  for (int w = 1; w <= workers; ++w) comm.send(params, w);
// ==== END EXERCISE ====
