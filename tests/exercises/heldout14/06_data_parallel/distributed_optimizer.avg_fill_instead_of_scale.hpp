// mistake: the division uses ringlab::fill (x = value) where ringlab::scale (x *= factor) belongs: every element of grad becomes 1/n
  // ==== BEGIN EXERCISE: average ====
  ringlab::ring_allreduce_fast<float>(comm, grad, grad);
  ringlab::fill(grad, 1.0f / static_cast<float>(comm.size()));
  // ==== END EXERCISE ====
