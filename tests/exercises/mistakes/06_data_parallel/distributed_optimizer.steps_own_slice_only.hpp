// mistake: each rank steps only its own slice of the weights — sharding's idea (lesson 09) where
// data parallelism keeps the whole model on every rank: the other slices never move.
// expect: 1
// expect-message: how far each weight moved .wrong only outside this rank's part .0, [0-9]+.; inside it every weight moved right.
// expect-message: only this rank's part of the weights was stepped, the others never moved
// expect-no-message: computed in integers
// expect-message: which hole: your step hole fails
// ==== BEGIN EXERCISE: step ====
  average_gradients(comm, grad);
  const ringlab::Chunk mine = ringlab::chunk_of(params.size(), comm.size(), comm.rank());
  sgd_momentum_update(params.sub(mine.offset, mine.count), grad.sub(mine.offset, mine.count),
                      velocity.sub(mine.offset, mine.count), lr, momentum);
// ==== END EXERCISE ====
