// mistake: a running average of pairs — each gradient averaged with the sum so far, which halves
// every earlier gradient again at each receive: the last counts most.
// expect: 1
// expect-message: which hole: your server step hole fails
// expect-message: every one is the gradients' shares summed with weights 1/2 and 1 \(in the order they arrive\), where each counts once: each gradient counts 2 times as much as the one before it — one possibility is that the sum is scaled inside the loop that adds them
// ==== BEGIN EXERCISE: server step ====
  tc.at("push", step);
  std::fill(sum.begin(), sum.end(), T(0));
  for (int w = 1; w <= workers; ++w) {
    comm.recv(incoming, w);
    for (std::size_t i = 0; i < sum.size(); ++i) sum[i] = (sum[i] + incoming[i]) / T(2);  // the bug
  }
  for (std::size_t i = 0; i < params.size(); ++i) params[i] -= lr * sum[i];
  tc.at("pull", step);
  for (int w = 1; w <= workers; ++w) comm.send(params, w);
// ==== END EXERCISE ====
