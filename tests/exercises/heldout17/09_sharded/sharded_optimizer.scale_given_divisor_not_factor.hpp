// mistake: scale is given the divisor n (read as 'scale down by n'), but it multiplies: the chunk becomes n times the sum
  // ==== BEGIN EXERCISE: stage1 ====
  ringlab::reduce_scatter(comm, View<const float>(grad), grad);  // my chunk of grad: the sum over ranks
  const Chunk mine = ringlab::owned_chunk(grad.size(), comm.size(), comm.rank());
  View<float> my_grad = grad.sub(mine.offset, mine.count);
  ringlab::scale(my_grad, static_cast<float>(comm.size()));  // the sum -> the mean
  ringlab::sgd_momentum(params.sub(mine.offset, mine.count), my_grad, velocity, lr, momentum);
  ringlab::allgather(comm, params);  // everyone's updated chunk, to everyone
  // ==== END EXERCISE ====
