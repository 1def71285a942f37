// mistake: the updated parameters are shared with lesson 06's broadcast from rank 0 instead of allgather: every rank gets rank 0's copy, in which only chunk 0 was updated
  // ==== BEGIN EXERCISE: stage1 ====
  ringlab::reduce_scatter(comm, View<const float>(grad), grad);  // my chunk of grad: the sum over ranks
  const Chunk mine = ringlab::owned_chunk(grad.size(), comm.size(), comm.rank());
  View<float> my_grad = grad.sub(mine.offset, mine.count);
  ringlab::scale(my_grad, 1.0f / static_cast<float>(comm.size()));  // the sum -> the mean
  ringlab::sgd_momentum(params.sub(mine.offset, mine.count), my_grad, velocity, lr, momentum);
  lesson06::broadcast(comm, params, 0);  // everyone's updated chunk, to everyone
  // ==== END EXERCISE ====
