// mistake: the parameters zeroed before the allgather, as a clean slate — the fill wipes this
// rank's updated chunk too, so every rank gathers zeros.
// expect: 1
// expect-message: FAIL +2 ranks +--check --stage 1 --data synthetic --batch 120: wrong results
// expect-message: every wrong parameter after the step is 0, in this rank's own shard too, where its update's result belongs: the parameters were set to 0 after the update
// ==== BEGIN EXERCISE: stage1 ====
  ringlab::reduce_scatter(comm, View<const float>(grad), grad);  // my chunk of grad: the sum over ranks
  const Chunk mine = ringlab::owned_chunk(grad.size(), comm.size(), comm.rank());
  View<float> my_grad = grad.sub(mine.offset, mine.count);
  ringlab::scale(my_grad, 1.0f / static_cast<float>(comm.size()));  // the sum -> the mean
  ringlab::sgd_momentum(params.sub(mine.offset, mine.count), my_grad, velocity, lr, momentum);
  ringlab::fill(params, 0.0f);  // the bug: the allgather sends each rank's chunk as it is
  ringlab::allgather(comm, params);  // everyone's updated chunk, to everyone
// ==== END EXERCISE ====
