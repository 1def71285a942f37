// mistake: updating my shard but never gathering — each rank steps its own chunk of the
// parameters and keeps the old values everywhere else, so the ranks' models drift apart.
// expect: 1
// expect-message: shards DIFFER between ranks WRONG
// expect-message: diagnosis: stage 1's step called reduce_scatter\(grad\); the reference calls reduce_scatter\(grad\), allgather\(params\)\. A call is missing: allgather\(params\), which copies each rank's own chunk
// ==== BEGIN EXERCISE: stage1 ====
  ringlab::reduce_scatter(comm, View<const float>(grad), grad);
  const Chunk mine = ringlab::owned_chunk(grad.size(), comm.size(), comm.rank());
  View<float> my_grad = grad.sub(mine.offset, mine.count);
  ringlab::scale(my_grad, 1.0f / static_cast<float>(comm.size()));
  ringlab::sgd_momentum(params.sub(mine.offset, mine.count), my_grad, velocity, lr, momentum);
  // the bug: no ringlab::allgather(comm, params)
// ==== END EXERCISE ====
