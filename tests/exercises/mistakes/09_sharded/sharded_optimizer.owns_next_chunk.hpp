// mistake: the chunk of the next rank — owned_chunk asked for rank + 1, as if the ring's
// reduce-scatter left each rank the chunk after its own: the rank steps a chunk it does not own.
// expect: 1
// expect-message: Yet not one of these places moved at step 0 .*: this rank's own chunk was never stepped, and the gradient there was never divided either.* one possibility is the chunk taken with another rank's number
// ==== BEGIN EXERCISE: stage1 ====
  ringlab::reduce_scatter(comm, View<const float>(grad), grad);
  const Chunk mine = ringlab::owned_chunk(grad.size(), comm.size(), (comm.rank() + 1) % comm.size());  // the bug
  View<float> my_grad = grad.sub(mine.offset, mine.count);
  ringlab::scale(my_grad, 1.0f / static_cast<float>(comm.size()));
  ringlab::sgd_momentum(params.sub(mine.offset, mine.count), my_grad, velocity, lr, momentum);
  ringlab::allgather(comm, params);
// ==== END EXERCISE ====
