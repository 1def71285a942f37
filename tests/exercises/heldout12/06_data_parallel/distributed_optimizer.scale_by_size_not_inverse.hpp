// mistake: after the allreduce the gradient is multiplied by comm.size() instead of divided by it
  // ==== BEGIN EXERCISE: average ====
  ringlab::ring_allreduce_fast<float>(comm, grad, grad);
  ringlab::scale(grad, static_cast<float>(comm.size()));
  // ==== END EXERCISE ====
