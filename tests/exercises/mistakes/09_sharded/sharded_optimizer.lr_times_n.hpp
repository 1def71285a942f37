// mistake: scaling the learning rate by the number of ranks — lesson 07's linear rule, applied
// inside the step where nothing asked for it: the gradient and the velocity are right, but every
// weight moves n times as far as stage 0 moves it.
// expect: 1
// expect-message: model NOT bit-identical to stage 0's WRONG
// expect-message: diagnosis: stage 1, step 0, rank 0's parameters, how far each moved: .*every wrong value is n = 2 times the right value: the velocity after the step is right, so the update was handed the right gradient: the learning rate it used was that factor times the right one
// ==== BEGIN EXERCISE: stage1 ====
  ringlab::reduce_scatter(comm, View<const float>(grad), grad);
  const Chunk mine = ringlab::owned_chunk(grad.size(), comm.size(), comm.rank());
  View<float> my_grad = grad.sub(mine.offset, mine.count);
  ringlab::scale(my_grad, 1.0f / static_cast<float>(comm.size()));
  ringlab::sgd_momentum(params.sub(mine.offset, mine.count), my_grad, velocity, lr * comm.size(),  // the bug
                        momentum);
  ringlab::allgather(comm, params);
// ==== END EXERCISE ====
