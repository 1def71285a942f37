  // ==== BEGIN EXERCISE: step ====
  average_gradients(comm, grad);
  const Part part = my_part(static_cast<int>(params.size()), comm.rank(), comm.size());
  const std::size_t off = static_cast<std::size_t>(part.offset), cnt = static_cast<std::size_t>(part.count);
  sgd_momentum_update(params.sub(off, cnt), grad.sub(off, cnt), velocity.sub(off, cnt), lr, momentum);
  // ==== END EXERCISE ====
