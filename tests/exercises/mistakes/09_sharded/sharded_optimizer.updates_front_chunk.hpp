// mistake: every rank updates the parameters' first chunk, params.sub(0, count), as the
// shard-sized velocity is indexed, not its own chunk at mine.offset.
// expect: 1
// expect-message: diagnosis: stage 1, step 0, rank 0's parameters, how far each moved \(wrong only outside its own shard\): .*every wrong value is 0: the evidence does not single out one cause; one possibility is that the other ranks' updates did not land in their own chunks of the parameters
// expect-no-message: the allgather after the update did not bring
// ==== BEGIN EXERCISE: stage1 ====
  ringlab::reduce_scatter(comm, View<const float>(grad), grad);
  const Chunk mine = ringlab::owned_chunk(grad.size(), comm.size(), comm.rank());
  View<float> my_grad = grad.sub(mine.offset, mine.count);
  ringlab::scale(my_grad, 1.0f / static_cast<float>(comm.size()));
  ringlab::sgd_momentum(params.sub(0, mine.count), my_grad, velocity, lr, momentum);  // the bug
  ringlab::allgather(comm, params);
// ==== END EXERCISE ====
