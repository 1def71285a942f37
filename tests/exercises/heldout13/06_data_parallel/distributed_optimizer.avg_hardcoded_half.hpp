// mistake: the mean is taken with a hard-coded factor 0.5f (written and tried on two ranks) instead of 1 / comm.size()
  // ==== BEGIN EXERCISE: average ====
  ringlab::ring_allreduce_fast<float>(comm, grad, grad);
  ringlab::scale(grad, 0.5f);
  // ==== END EXERCISE ====
