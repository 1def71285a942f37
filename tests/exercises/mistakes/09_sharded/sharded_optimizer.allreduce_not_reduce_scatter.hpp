// mistake: an allreduce where the reduce-scatter belongs — every value comes out right (each
// rank updates its chunk from a whole summed gradient), but every rank sums the whole gradient
// and the step sends 1.5 times what stage 0's does: the point of sharding is lost.
// expect: 1
// expect-message: bytes sent in a step NOT stage 0's WRONG
// expect-message: diagnosis: stage 1's step called allreduce\(grad\), allgather\(params\); the reference calls reduce_scatter\(grad\), allgather\(params\)\. The call of another kind: allreduce\(grad\) sums the buffer over the ranks and gives every rank the whole sum
// ==== BEGIN EXERCISE: stage1 ====
  ringlab::ring_allreduce_fast<float>(comm, grad, grad);  // the bug: the whole gradient, summed everywhere
  const Chunk mine = ringlab::owned_chunk(grad.size(), comm.size(), comm.rank());
  View<float> my_grad = grad.sub(mine.offset, mine.count);
  ringlab::scale(my_grad, 1.0f / static_cast<float>(comm.size()));
  ringlab::sgd_momentum(params.sub(mine.offset, mine.count), my_grad, velocity, lr, momentum);
  ringlab::allgather(comm, params);
// ==== END EXERCISE ====
