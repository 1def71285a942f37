// mistake: dividing the parameters' chunk by n, not the gradient's — the update steps with the
// summed gradient from parameters scaled by 1/n.
// expect: 1
// expect-message: every wrong value is n = [0-9]+ times the right value
// expect-message: Yet the update stepped with this gradient, and the parameters were multiplied by [0-9.]+ = 1/n besides.*The division by n was applied to your chunk of the parameters
  // ==== BEGIN EXERCISE: stage1 ====
  ringlab::reduce_scatter(comm, View<const float>(grad), grad);  // my chunk of grad: the sum over ranks
  const Chunk mine = ringlab::owned_chunk(grad.size(), comm.size(), comm.rank());
  View<float> my_grad = grad.sub(mine.offset, mine.count);
  ringlab::scale(params.sub(mine.offset, mine.count), 1.0f / static_cast<float>(comm.size()));  // the sum -> the mean
  ringlab::sgd_momentum(params.sub(mine.offset, mine.count), my_grad, velocity, lr, momentum);
  ringlab::allgather(comm, params);  // everyone's updated chunk, to everyone
  // ==== END EXERCISE ====
