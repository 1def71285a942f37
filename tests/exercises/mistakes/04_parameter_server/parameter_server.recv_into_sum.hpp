// mistake: the server receives each gradient straight into `sum` — each one replaces the one
// before, so the step uses only the last worker's gradient (right on 2 ranks: one worker).
// expect: 1
// expect-message: diagnosis: the parameter server: step 0 is wrong. how far it moved: .* every wrong value equals what arrived
// expect-message: only the last gradient to arrive counts: the step used it alone, not the sum of all of them
// expect-message: one possibility is the sum overwritten .=. where each gradient must be added to it
// ==== BEGIN EXERCISE: server step ====
  tc.at("push", step);
  std::fill(sum.begin(), sum.end(), T(0));
  for (int w = 1; w <= workers; ++w) comm.recv(sum, w);  // the bug: into sum, not added to it
  for (std::size_t i = 0; i < params.size(); ++i) params[i] -= lr * (sum[i] / T(workers));
  tc.at("pull", step);
  for (int w = 1; w <= workers; ++w) comm.send(params, w);
// ==== END EXERCISE ====
