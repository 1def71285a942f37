  // ==== BEGIN EXERCISE: allgather ====
  for (int s = 0; s < n - 1; ++s) {
    tc.at("allgather", s);
    const ringlab::Chunk send_c = ringlab::chunk_of(out.size(), n, (r + 1 - s) % n);
    const ringlab::Chunk recv_c = ringlab::chunk_of(out.size(), n, (r - s) % n);
    comm.sendrecv(out.sub(send_c.offset, send_c.count), next, out.sub(recv_c.offset, recv_c.count), prev);
  }
  // ==== END EXERCISE ====
