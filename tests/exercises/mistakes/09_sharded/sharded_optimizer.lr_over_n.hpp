// mistake: dividing the learning rate by n instead of the gradient chunk — the parameters move as
// the right step moves them, but the chunk of the gradient (and the velocity) keeps the sum.
// expect: 1
// expect-message: every wrong value is n = [0-9]+ times the right value
// expect-message: Yet the parameters moved exactly as a step with the mean moves them.*one possibility is lr / n handed to the update
  // ==== BEGIN EXERCISE: stage1 ====
  ringlab::reduce_scatter(comm, View<const float>(grad), grad);  // my chunk of grad: the sum over ranks
  const Chunk mine = ringlab::owned_chunk(grad.size(), comm.size(), comm.rank());
  View<float> my_grad = grad.sub(mine.offset, mine.count);
  ringlab::sgd_momentum(params.sub(mine.offset, mine.count), my_grad, velocity,
                        lr / static_cast<float>(comm.size()), momentum);  // the bug: lr / n, the chunk kept the sum
  ringlab::allgather(comm, params);  // everyone's updated chunk, to everyone
  // ==== END EXERCISE ====
