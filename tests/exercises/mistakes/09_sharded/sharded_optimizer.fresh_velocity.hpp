// mistake: a fresh velocity each step — a local vector of zeros the size of the shard stands in
// for the optimizer state, so nothing carries over from one step to the next.
// expect: 1
// expect-message: step 1, rank 0's parameters, how far each moved: .*every one moved as a step from velocity 0 moves it .*the velocity did not carry over from the step before
// ==== BEGIN EXERCISE: stage1 ====
  ringlab::reduce_scatter(comm, View<const float>(grad), grad);  // my chunk of grad: the sum over ranks
  const Chunk mine = ringlab::owned_chunk(grad.size(), comm.size(), comm.rank());
  View<float> my_grad = grad.sub(mine.offset, mine.count);
  ringlab::scale(my_grad, 1.0f / static_cast<float>(comm.size()));  // the sum -> the mean
  std::vector<float> v(mine.count, 0.0f);  // the bug: the velocity lives in `velocity`, kept between steps
  ringlab::sgd_momentum(params.sub(mine.offset, mine.count), my_grad, View<float>(v), lr, momentum);
  ringlab::allgather(comm, params);  // everyone's updated chunk, to everyone
// ==== END EXERCISE ====
