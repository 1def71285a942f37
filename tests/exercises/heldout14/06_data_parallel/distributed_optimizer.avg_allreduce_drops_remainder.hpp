// mistake: the allreduce covers only the first count - count % n elements ("the ring wants equal chunks"); the last count % n are divided by n but never summed
  // ==== BEGIN EXERCISE: average ====
  const std::size_t even = grad.size() - grad.size() % static_cast<std::size_t>(comm.size());  // equal chunks for the ring
  ringlab::ring_allreduce_fast<float>(comm, grad.sub(0, even), grad.sub(0, even));
  ringlab::scale(grad, 1.0f / static_cast<float>(comm.size()));
  // ==== END EXERCISE ====
