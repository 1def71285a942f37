// mistake: sending the averaged gradient back — the server divides its sum in place, steps with
// it, then sends that buffer where the workers must be sent the parameters.
// expect: 1
// expect-message: diagnosis: the workers: worker 1's parameters after each step are the averaged gradient the server stepped with in that step .*not its parameters: the server sends that buffer where it must send the parameters
// ==== BEGIN EXERCISE: server step ====
  tc.at("push", step);
  std::fill(sum.begin(), sum.end(), T(0));
  for (int w = 1; w <= workers; ++w) {
    comm.recv(incoming, w);
    ringlab::reduce_sum(sum, View<const T>(incoming));
  }
  for (std::size_t i = 0; i < params.size(); ++i) {
    sum[i] /= T(workers);
    params[i] -= lr * sum[i];
  }
  tc.at("pull", step);
  for (int w = 1; w <= workers; ++w) comm.send(sum, w);  // the bug: the averaged gradient, not params
// ==== END EXERCISE ====
