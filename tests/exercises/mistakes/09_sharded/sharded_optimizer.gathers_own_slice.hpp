// mistake: handing the allgather only this rank's slice — of the parameters: it cuts that slice
// into n chunks and fills it with the other ranks' pieces of THEIR slices, and nothing outside it
// is ever written: outside the shard nothing moved, inside it the values come from elsewhere.
// expect: 1
// expect-message: shards DIFFER between ranks WRONG
// expect-message: diagnosis: stage 1's step called reduce_scatter\(grad\), allgather\(params\[0, [0-9]+\) of its 235146\); .*The allgather was given only part of params
// ==== BEGIN EXERCISE: stage1 ====
  ringlab::reduce_scatter(comm, View<const float>(grad), grad);
  const Chunk mine = ringlab::owned_chunk(grad.size(), comm.size(), comm.rank());
  View<float> my_grad = grad.sub(mine.offset, mine.count);
  ringlab::scale(my_grad, 1.0f / static_cast<float>(comm.size()));
  ringlab::sgd_momentum(params.sub(mine.offset, mine.count), my_grad, velocity, lr, momentum);
  ringlab::allgather(comm, params.sub(mine.offset, mine.count));  // the bug: my slice, not the whole
// ==== END EXERCISE ====
