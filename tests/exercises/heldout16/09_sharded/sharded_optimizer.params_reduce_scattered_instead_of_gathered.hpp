// mistake: the updated parameters are reduce-scattered instead of allgathered, so each rank's own chunk becomes the sum of every rank's copy of it and the other chunks hold partial sums
  // ==== BEGIN EXERCISE: stage1 ====
  ringlab::reduce_scatter(comm, View<const float>(grad), grad);  // my chunk of grad: the sum over ranks
  const Chunk mine = ringlab::owned_chunk(grad.size(), comm.size(), comm.rank());
  View<float> my_grad = grad.sub(mine.offset, mine.count);
  ringlab::scale(my_grad, 1.0f / static_cast<float>(comm.size()));  // the sum -> the mean
  ringlab::sgd_momentum(params.sub(mine.offset, mine.count), my_grad, velocity, lr, momentum);
  ringlab::reduce_scatter(comm, View<const float>(params), params);  // everyone's updated chunk, to everyone
  // ==== END EXERCISE ====
