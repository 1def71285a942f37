// mistake: the sum is scaled by the fraction of the model this rank owns, mine.count / grad.size(), instead of 1 / comm.size(): equal only when n divides the parameter count
  // ==== BEGIN EXERCISE: stage1 ====
  ringlab::reduce_scatter(comm, View<const float>(grad), grad);  // my chunk of grad: the sum over ranks
  const Chunk mine = ringlab::owned_chunk(grad.size(), comm.size(), comm.rank());
  View<float> my_grad = grad.sub(mine.offset, mine.count);
  ringlab::scale(my_grad, static_cast<float>(mine.count) / static_cast<float>(grad.size()));  // the sum -> the mean
  ringlab::sgd_momentum(params.sub(mine.offset, mine.count), my_grad, velocity, lr, momentum);
  ringlab::allgather(comm, params);  // everyone's updated chunk, to everyone
  // ==== END EXERCISE ====
