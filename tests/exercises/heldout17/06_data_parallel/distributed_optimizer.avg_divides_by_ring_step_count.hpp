// mistake: the sum is divided by the ring's number of steps, 2(n-1), instead of the number of ranks
  // ==== BEGIN EXERCISE: average ====
  ringlab::ring_allreduce_fast<float>(comm, grad, grad);
  ringlab::scale(grad, 1.0f / static_cast<float>(2 * (comm.size() - 1)));  // one share per ring step
  // ==== END EXERCISE ====
