// mistake: the velocity handed to the allgather as this rank's part — the shard-sized buffer at
// hand, where the updated chunk of the parameters belongs: every rank's parameters become velocity.
// expect: 1
// expect-message: diagnosis: stage 1, step 0, rank 0's parameters, how far each moved: [0-9]+ wrong values, .*; every wrong parameter after the step is the velocity the step leaves there .from rest, the mean gradient.
// ==== BEGIN EXERCISE: stage1 ====
  ringlab::reduce_scatter(comm, View<const float>(grad), grad);  // my chunk of grad: the sum over ranks
  const Chunk mine = ringlab::owned_chunk(grad.size(), comm.size(), comm.rank());
  View<float> my_grad = grad.sub(mine.offset, mine.count);
  ringlab::scale(my_grad, 1.0f / static_cast<float>(comm.size()));  // the sum -> the mean
  ringlab::sgd_momentum(params.sub(mine.offset, mine.count), my_grad, velocity, lr, momentum);
  ringlab::allgather(comm, View<const float>(velocity), params);  // the bug: velocity, not the updated chunk
// ==== END EXERCISE ====
