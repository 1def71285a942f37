// mistake: the partner is computed as r ^ 1 (a pairwise-exchange partner) instead of r - 1; right for ranks 1 and 3, wrong for rank 2 and beyond
  // ==== BEGIN EXERCISE: receive ====
  if (r > 0) comm.recv(View<T>(&y, 1), r ^ 1);  // wait for the partial sum of the ranks before
  // ==== END EXERCISE ====
