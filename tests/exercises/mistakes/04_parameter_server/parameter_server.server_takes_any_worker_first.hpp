// mistake: the synchronous server takes the gradients as they arrive — recv_from_any, the
// asynchronous server's call: the values agree to rounding, but the sum's order, and so its
// rounding, changes from run to run, where the step adds them in rank order.
// expect: 1
// expect-message: diagnosis: the parameter server took [0-9]+ gradients with recv_from_any .whichever worker is first. in the synchronous step, where server_step adds them in rank order
// expect-message: which hole: your server step hole fails
// ==== BEGIN EXERCISE: server step ====
  tc.at("push", step);
  std::fill(sum.begin(), sum.end(), T(0));
  for (int w = 1; w <= workers; ++w) {
    ringlab::recv_from_any(comm, incoming);
    ringlab::reduce_sum(sum, View<const T>(incoming));
  }
  for (std::size_t i = 0; i < params.size(); ++i) params[i] -= lr * (sum[i] / T(workers));
  tc.at("pull", step);
  for (int w = 1; w <= workers; ++w) comm.send(params, w);
// ==== END EXERCISE ====
