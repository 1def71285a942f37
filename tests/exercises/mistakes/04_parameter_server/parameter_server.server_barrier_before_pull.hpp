// mistake: a barrier on the server before the pull — "so that every worker has pushed", but the
// workers wait in their receive, never in a barrier: nothing ends.
// expect: 3
// expect-message: which hole: your server step hole hangs with the reference worker step
// expect-message: diagnosis: pull step 0: rank 1 waits to receive from rank 0, as the parameter server has it; .*but rank 0 is in no point-to-point call: it waits in comm.barrier, a call every rank makes, which ends only when every rank is in it.* one possibility is comm.barrier called before that send
// ==== BEGIN EXERCISE: server step ====
  tc.at("push", step);
  std::fill(sum.begin(), sum.end(), T(0));
  for (int w = 1; w <= workers; ++w) {
    comm.recv(incoming, w);
    ringlab::reduce_sum(sum, View<const T>(incoming));
  }
  for (std::size_t i = 0; i < params.size(); ++i) params[i] -= lr * (sum[i] / T(workers));
  comm.barrier();  // the bug: the workers are in their receive, not in a barrier
  tc.at("pull", step);
  for (int w = 1; w <= workers; ++w) comm.send(params, w);
// ==== END EXERCISE ====
