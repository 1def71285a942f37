// mistake: the receive runs the chain in the backward-pass direction (every rank but the last receives from r + 1), while the send still goes to r + 1
  // ==== BEGIN EXERCISE: receive ====
  if (r < last) comm.recv(View<T>(&y, 1), r + 1);  // wait for the partial sum of the ranks before
  // ==== END EXERCISE ====
