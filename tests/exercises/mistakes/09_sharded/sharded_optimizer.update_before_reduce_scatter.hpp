// mistake: the update before the reduce-scatter — each rank divides and steps with its own
// gradient, and only then sums the chunks: the chunk ends with its own part divided, the others' not.
// expect: 1
// expect-message: every wrong value is the rank's own part times 1/n = 1/2 plus the other ranks' times 1 .*: only the owner's own part was divided by n: the division came before the reduce-scatter's sum — and since the update did not step with the sum either, one possibility is that the division and the update ran before reduce_scatter
// ==== BEGIN EXERCISE: stage1 ====
  const Chunk mine = ringlab::owned_chunk(grad.size(), comm.size(), comm.rank());
  View<float> my_grad = grad.sub(mine.offset, mine.count);
  ringlab::scale(my_grad, 1.0f / static_cast<float>(comm.size()));
  ringlab::sgd_momentum(params.sub(mine.offset, mine.count), my_grad, velocity, lr, momentum);
  ringlab::reduce_scatter(comm, View<const float>(grad), grad);  // the bug: the sum comes last
  ringlab::allgather(comm, params);
// ==== END EXERCISE ====
