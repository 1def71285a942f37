// mistake: the allgather posts every step's irecv and isend first and waits for all of them at the end, so step s sends a chunk whose receive (step s - 1) has not finished
  // ==== BEGIN EXERCISE: allgather ====
  std::vector<ringlab::Request> pending;
  for (int s = 0; s < n - 1; ++s) {
    tc.at("allgather", s);
    pending.push_back(comm.irecv(chunk(r - s), prev));
    pending.push_back(comm.isend(chunk(r + 1 - s), next));
  }
  comm.wait_all(pending);
  // ==== END EXERCISE ====
