  // ==== BEGIN EXERCISE: worker step ====
  tc.at("push", step);
  const ringlab::Chunk part = ringlab::chunk_of(grad.size(), comm.size() - 1, comm.rank() - 1);
  comm.send(grad.sub(part.offset, part.count), kServer);
  tc.at("pull", step);
  comm.recv(params, kServer);
  // ==== END EXERCISE ====
