// mistake: in the receive hole rank 0 'starts the chain' by sending its still-zero y to rank 1, on top of the real send after its terms
  // ==== BEGIN EXERCISE: receive ====
  if (r > 0) comm.recv(View<T>(&y, 1), r - 1);  // wait for the partial sum of the ranks before
  else comm.send(View<const T>(&y, 1), r + 1);  // rank 0 starts the chain
  // ==== END EXERCISE ====
