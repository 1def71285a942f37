// mistake: this rank's chunk is cut by hand with the textbook block split (count / n each, the remainder to the last rank) instead of owned_chunk, whose first count % n chunks are one longer
  // ==== BEGIN EXERCISE: stage1 ====
  ringlab::reduce_scatter(comm, View<const float>(grad), grad);  // my chunk of grad: the sum over ranks
  const std::size_t per = grad.size() / static_cast<std::size_t>(comm.size());
  const Chunk mine{per * static_cast<std::size_t>(comm.rank()),
                   per + (comm.rank() == comm.size() - 1 ? grad.size() % static_cast<std::size_t>(comm.size()) : 0)};
  View<float> my_grad = grad.sub(mine.offset, mine.count);
  ringlab::scale(my_grad, 1.0f / static_cast<float>(comm.size()));  // the sum -> the mean
  ringlab::sgd_momentum(params.sub(mine.offset, mine.count), my_grad, velocity, lr, momentum);
  ringlab::allgather(comm, params);  // everyone's updated chunk, to everyone
  // ==== END EXERCISE ====
