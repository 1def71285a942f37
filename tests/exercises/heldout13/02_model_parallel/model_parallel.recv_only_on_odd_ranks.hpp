// mistake: the receive is guarded by r % 2 == 1 (pairs 0-1, 2-3 as in a ping-pong) instead of r > 0, so even ranks past 0 never take the partial sum
  // ==== BEGIN EXERCISE: receive ====
  if (r % 2 == 1) comm.recv(View<T>(&y, 1), r - 1);  // wait for the partial sum of the ranks before
  // ==== END EXERCISE ====
