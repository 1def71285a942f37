// mistake: the server never sets the sum back to 0 — every step adds this step's gradients to all the earlier ones.
// expect: 1
// expect-message: wrong results
// expect-message: diagnosis: the parameter server: step 0 is right and step 1 is wrong.*something carries over from one step to the next
// ==== BEGIN EXERCISE: server step ====
  tc.at("push", step);
  for (int w = 1; w <= workers; ++w) {  // the bug: no std::fill(sum.begin(), sum.end(), T(0)) first
    comm.recv(incoming, w);
    ringlab::reduce_sum(sum, View<const T>(incoming));
  }
  for (std::size_t i = 0; i < params.size(); ++i) params[i] -= lr * (sum[i] / T(workers));
  tc.at("pull", step);
  for (int w = 1; w <= workers; ++w) comm.send(params, w);
// ==== END EXERCISE ====
