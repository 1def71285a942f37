// mistake: the gradient and the velocity swapped in the shard's update — sgd_momentum(params,
// velocity, my_grad, ...): the update keeps its new velocity in the gradient, and the step moves
// with a velocity that stays 0.
// expect: 1
// expect-message: every wrong value is the momentum = 0.9 times the right value: the gradient holds momentum \* gradient and the velocity is still 0 after the step
// expect-message: the gradient and the velocity were passed in each other's place to sgd_momentum
// ==== BEGIN EXERCISE: stage1 ====
  ringlab::reduce_scatter(comm, View<const float>(grad), grad);
  const Chunk mine = ringlab::owned_chunk(grad.size(), comm.size(), comm.rank());
  View<float> my_grad = grad.sub(mine.offset, mine.count);
  ringlab::scale(my_grad, 1.0f / static_cast<float>(comm.size()));
  ringlab::sgd_momentum(params.sub(mine.offset, mine.count), velocity, my_grad, lr, momentum);  // the bug
  ringlab::allgather(comm, params);
// ==== END EXERCISE ====
