// mistake: the receive passes the number of this rank's terms as recv's third argument (the tag), taking it for a count; the send uses tag 0
  // ==== BEGIN EXERCISE: receive ====
  if (r > 0) comm.recv(View<T>(&y, 1), r - 1, static_cast<int>(x.size()));  // wait for the partial sum of the ranks before
  // ==== END EXERCISE ====
