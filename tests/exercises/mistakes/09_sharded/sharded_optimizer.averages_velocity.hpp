// mistake: dividing the velocity by n as well as the gradient — the velocity is this rank's own
// state of its chunk; averaged, it carries over momentum / n of itself.
// expect: 1
// expect-message: step 1, rank 0's parameters, how far each moved: .*momentum / n: the velocity was divided by n \(2\) besides the update
  // ==== BEGIN EXERCISE: stage1 ====
  ringlab::reduce_scatter(comm, View<const float>(grad), grad);  // my chunk of grad: the sum over ranks
  const Chunk mine = ringlab::owned_chunk(grad.size(), comm.size(), comm.rank());
  View<float> my_grad = grad.sub(mine.offset, mine.count);
  ringlab::scale(my_grad, 1.0f / static_cast<float>(comm.size()));  // the sum -> the mean
  ringlab::scale(velocity, 1.0f / static_cast<float>(comm.size()));  // the bug: the velocity is not averaged
  ringlab::sgd_momentum(params.sub(mine.offset, mine.count), my_grad, velocity, lr, momentum);
  ringlab::allgather(comm, params);  // everyone's updated chunk, to everyone
  // ==== END EXERCISE ====
