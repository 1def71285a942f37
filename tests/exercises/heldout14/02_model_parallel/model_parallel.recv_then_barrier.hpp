// mistake: the receive hole adds comm.barrier() after the receive ("everyone has its partial sum before anyone adds"), but rank 0 sits in the barrier instead of sending
  // ==== BEGIN EXERCISE: receive ====
  if (r > 0) comm.recv(View<T>(&y, 1), r - 1);  // wait for the partial sum of the ranks before
  comm.barrier();  // everyone has its partial sum before anyone adds its terms
  // ==== END EXERCISE ====
