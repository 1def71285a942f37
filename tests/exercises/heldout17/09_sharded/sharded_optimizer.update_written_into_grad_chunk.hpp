// mistake: the optimizer step is applied to grad's chunk instead of params' chunk, so the parameters never change
  // ==== BEGIN EXERCISE: stage1 ====
  ringlab::reduce_scatter(comm, View<const float>(grad), grad);  // my chunk of grad: the sum over ranks
  const Chunk mine = ringlab::owned_chunk(grad.size(), comm.size(), comm.rank());
  View<float> my_grad = grad.sub(mine.offset, mine.count);
  ringlab::scale(my_grad, 1.0f / static_cast<float>(comm.size()));  // the sum -> the mean
  ringlab::sgd_momentum(grad.sub(mine.offset, mine.count), my_grad, velocity, lr, momentum);
  ringlab::allgather(comm, params);  // everyone's updated chunk, to everyone
  // ==== END EXERCISE ====
