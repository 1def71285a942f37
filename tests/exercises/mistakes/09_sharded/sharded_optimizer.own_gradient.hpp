// mistake: stepping with my own gradient — the chunk is updated with this rank's gradient
// alone (divided by n) instead of the sum over the ranks: no reduce-scatter.
// expect: 1
// expect-message: check: stage 1, 5 steps: averaged gradient vs one process [0-9.e+-]+ WRONG
// expect-message: diagnosis: stage 1's step called allgather\(params\); the reference calls reduce_scatter\(grad\), allgather\(params\)\. A call is missing: reduce_scatter\(grad\)
// ==== BEGIN EXERCISE: stage1 ====
  const Chunk mine = ringlab::owned_chunk(grad.size(), comm.size(), comm.rank());  // the bug: no reduce_scatter
  View<float> my_grad = grad.sub(mine.offset, mine.count);
  ringlab::scale(my_grad, 1.0f / static_cast<float>(comm.size()));
  ringlab::sgd_momentum(params.sub(mine.offset, mine.count), my_grad, velocity, lr, momentum);
  ringlab::allgather(comm, params);
// ==== END EXERCISE ====
