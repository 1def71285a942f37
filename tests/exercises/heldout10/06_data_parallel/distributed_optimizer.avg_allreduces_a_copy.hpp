  // ==== BEGIN EXERCISE: average ====
  std::vector<float> summed(grad.begin(), grad.end());
  ringlab::ring_allreduce_fast<float>(comm, summed, summed);
  ringlab::scale(grad, 1.0f / static_cast<float>(comm.size()));
  // ==== END EXERCISE ====
