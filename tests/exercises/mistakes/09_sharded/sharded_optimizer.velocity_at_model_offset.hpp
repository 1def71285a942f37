// mistake: slicing the velocity at the model's offset — as if it were as long as the model: it
// is this rank's shard already, so a slice at the chunk's offset in the whole model runs past its
// end on every rank but rank 0. View::sub refuses such a slice, and the check names the numbers in its message.
// expect: 4
// expect-message: error: a slice \[117573, 235146\) of a view of 117573 elements reaches past its end \(117573 is .*this rank's chunk or where this rank's chunk starts in the whole model
// ==== BEGIN EXERCISE: stage1 ====
  ringlab::reduce_scatter(comm, View<const float>(grad), grad);
  const Chunk mine = ringlab::owned_chunk(grad.size(), comm.size(), comm.rank());
  View<float> my_grad = grad.sub(mine.offset, mine.count);
  ringlab::scale(my_grad, 1.0f / static_cast<float>(comm.size()));
  ringlab::sgd_momentum(params.sub(mine.offset, mine.count), my_grad, velocity.sub(mine.offset, mine.count), lr,
                        momentum);  // the bug: velocity is the shard, indexed from 0
  ringlab::allgather(comm, params);
// ==== END EXERCISE ====
