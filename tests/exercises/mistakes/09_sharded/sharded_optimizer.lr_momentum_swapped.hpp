// mistake: lr and momentum swapped in the shard's update — sgd_momentum(params, grad, velocity,
// momentum, lr): from rest the step moves momentum / lr times as far.
// expect: 1
// expect-message: step 0, rank 0's parameters, how far each moved: .*momentum / lr = 0.9 / 0.03.*the step used the momentum where the learning rate belongs
// ==== BEGIN EXERCISE: stage1 ====
  ringlab::reduce_scatter(comm, View<const float>(grad), grad);  // my chunk of grad: the sum over ranks
  const Chunk mine = ringlab::owned_chunk(grad.size(), comm.size(), comm.rank());
  View<float> my_grad = grad.sub(mine.offset, mine.count);
  ringlab::scale(my_grad, 1.0f / static_cast<float>(comm.size()));  // the sum -> the mean
  ringlab::sgd_momentum(params.sub(mine.offset, mine.count), my_grad, velocity, momentum, lr);  // the bug
  ringlab::allgather(comm, params);  // everyone's updated chunk, to everyone
// ==== END EXERCISE ====
