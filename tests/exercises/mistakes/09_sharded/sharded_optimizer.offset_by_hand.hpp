// mistake: this rank's chunk at rank * count, computed by hand — right only when n divides the
// model; otherwise the later ranks' slices start a little early and miss their chunk's end.
// expect: 1
// np: 4
// expect-message: Every wrong place lies at the end of a chunk: the last 2 of rank 2's .*one possibility is an offset or size computed by hand \(rank \* count\), where owned_chunk\(\)'s belongs
  // ==== BEGIN EXERCISE: stage1 ====
  ringlab::reduce_scatter(comm, View<const float>(grad), grad);  // my chunk of grad: the sum over ranks
  const Chunk mine = ringlab::owned_chunk(grad.size(), comm.size(), comm.rank());
  const std::size_t at = static_cast<std::size_t>(comm.rank()) * mine.count;  // the bug: not mine.offset
  View<float> my_grad = grad.sub(at, mine.count);
  ringlab::scale(my_grad, 1.0f / static_cast<float>(comm.size()));  // the sum -> the mean
  ringlab::sgd_momentum(params.sub(at, mine.count), my_grad, velocity, lr, momentum);
  ringlab::allgather(comm, params);  // everyone's updated chunk, to everyone
  // ==== END EXERCISE ====
