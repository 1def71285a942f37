// mistake: the parameters' chunk and the velocity passed in each other's places to sgd_momentum —
// the parameters get the velocity's formula, momentum * p + grad.
// expect: 1
// expect-message: step 0, rank 0's parameters, how far each moved: .*every wrong weight now holds momentum \* its value before \+ the gradient.*passed in each other's places to sgd_momentum
  // ==== BEGIN EXERCISE: stage1 ====
  ringlab::reduce_scatter(comm, View<const float>(grad), grad);  // my chunk of grad: the sum over ranks
  const Chunk mine = ringlab::owned_chunk(grad.size(), comm.size(), comm.rank());
  View<float> my_grad = grad.sub(mine.offset, mine.count);
  ringlab::scale(my_grad, 1.0f / static_cast<float>(comm.size()));  // the sum -> the mean
  ringlab::sgd_momentum(velocity, my_grad, params.sub(mine.offset, mine.count), lr, momentum);  // the bug: swapped
  ringlab::allgather(comm, params);  // everyone's updated chunk, to everyone
  // ==== END EXERCISE ====
