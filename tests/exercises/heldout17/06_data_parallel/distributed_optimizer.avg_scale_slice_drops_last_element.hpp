// mistake: the division runs on grad.sub(0, grad.size() - 1), sub's count read as a last index: the last element stays a sum
  // ==== BEGIN EXERCISE: average ====
  ringlab::ring_allreduce_fast<float>(comm, grad, grad);
  ringlab::scale(grad.sub(0, grad.size() - 1), 1.0f / static_cast<float>(comm.size()));
  // ==== END EXERCISE ====
