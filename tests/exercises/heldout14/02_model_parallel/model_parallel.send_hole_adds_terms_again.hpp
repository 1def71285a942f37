// mistake: the send hole repeats the loop that adds this rank's terms ("add your terms, then hand on"), so every rank's terms are counted twice
  // ==== BEGIN EXERCISE: send ====
  for (std::size_t i = 0; i < x.size(); ++i) y += w[i] * x[i];  // add this rank's terms...
  if (r < last) comm.send(View<const T>(&y, 1), r + 1);  // pass it on
  // ==== END EXERCISE ====
