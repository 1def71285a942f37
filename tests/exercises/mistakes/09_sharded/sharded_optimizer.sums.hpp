// mistake: summing where averaging is needed — the chunk is reduce-scattered and stepped with,
// but never divided by the number of ranks, so every step is n times too large.
// expect: 1
// expect-message: check: stage 1, 5 steps: averaged gradient vs one process [0-9.e+-]+ WRONG
// expect-message: model NOT bit-identical to stage 0's WRONG
// expect-message: diagnosis: stage 1, step 0, the averaged gradient: .*every wrong value is n = [0-9]+ times the right value: the sum over the ranks was used where the mean belongs
// ==== BEGIN EXERCISE: stage1 ====
  ringlab::reduce_scatter(comm, View<const float>(grad), grad);
  const Chunk mine = ringlab::owned_chunk(grad.size(), comm.size(), comm.rank());
  View<float> my_grad = grad.sub(mine.offset, mine.count);  // the bug: the sum, never divided by comm.size()
  ringlab::sgd_momentum(params.sub(mine.offset, mine.count), my_grad, velocity, lr, momentum);
  ringlab::allgather(comm, params);
// ==== END EXERCISE ====
