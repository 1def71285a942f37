// mistake: the updated chunk is allgathered into grad (used as a free landing buffer, allgather(comm, mine, grad)) instead of into params, so params never receives the other ranks' chunks
  // ==== BEGIN EXERCISE: stage1 ====
  ringlab::reduce_scatter(comm, View<const float>(grad), grad);  // my chunk of grad: the sum over ranks
  const Chunk mine = ringlab::owned_chunk(grad.size(), comm.size(), comm.rank());
  View<float> my_grad = grad.sub(mine.offset, mine.count);
  ringlab::scale(my_grad, 1.0f / static_cast<float>(comm.size()));  // the sum -> the mean
  ringlab::sgd_momentum(params.sub(mine.offset, mine.count), my_grad, velocity, lr, momentum);
  ringlab::allgather(comm, View<const float>(params.sub(mine.offset, mine.count)), grad);  // everyone's updated chunk, to everyone
  // ==== END EXERCISE ====
