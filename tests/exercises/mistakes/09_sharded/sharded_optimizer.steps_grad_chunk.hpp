// mistake: handing sgd_momentum the gradient's chunk as the tensor to step, where the parameters'
// chunk belongs — the step lands in the gradient, and the parameters never move.
// expect: 1
// expect-message: and every one holds the mean less lr times the mean .*: the step, -lr times the velocity \(the mean, from rest\), was written into your chunk of the gradient, not into the parameters
// expect-no-message: never divided
// ==== BEGIN EXERCISE: stage1 ====
  ringlab::reduce_scatter(comm, View<const float>(grad), grad);  // my chunk of grad: the sum over ranks
  const Chunk mine = ringlab::owned_chunk(grad.size(), comm.size(), comm.rank());
  View<float> my_grad = grad.sub(mine.offset, mine.count);
  ringlab::scale(my_grad, 1.0f / static_cast<float>(comm.size()));  // the sum -> the mean
  ringlab::sgd_momentum(grad.sub(mine.offset, mine.count), my_grad, velocity, lr, momentum);  // the bug
  ringlab::allgather(comm, params);  // everyone's updated chunk, to everyone
// ==== END EXERCISE ====
