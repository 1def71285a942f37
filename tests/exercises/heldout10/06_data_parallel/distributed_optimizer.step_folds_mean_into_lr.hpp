  // ==== BEGIN EXERCISE: step ====
  ringlab::ring_allreduce_fast<float>(comm, grad, grad);  // the sum; the 1/n goes into the rate
  sgd_momentum_update(params, grad, velocity, lr / static_cast<float>(comm.size()), momentum);
  // ==== END EXERCISE ====
