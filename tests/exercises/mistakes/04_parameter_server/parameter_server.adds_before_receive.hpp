// mistake: the server adds before it receives, inside its loop — each add takes what the receive
// before it brought, so the first adds stale memory and the last worker's gradient never counts.
// expect: 1
// expect-message: diagnosis: the parameter server: step 0 is wrong; how far it moved: [0-9]+ wrong values, .*summed with weights 1 and 0 \(in the order they arrive\), where each counts once: the last gradient to arrive never counted, every other one once — one possibility is the add before the receive
// ==== BEGIN EXERCISE: server step ====
  tc.at("push", step);
  std::fill(sum.begin(), sum.end(), T(0));
  for (int w = 1; w <= workers; ++w) {
    ringlab::reduce_sum(sum, View<const T>(incoming));  // the bug: before the receive
    comm.recv(incoming, w);
  }
  for (std::size_t i = 0; i < params.size(); ++i) params[i] -= lr * (sum[i] / T(workers));
  tc.at("pull", step);
  for (int w = 1; w <= workers; ++w) comm.send(params, w);
// ==== END EXERCISE ====
