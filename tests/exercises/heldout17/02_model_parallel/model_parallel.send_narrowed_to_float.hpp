// mistake: the partial sum is narrowed to a float before it is sent, while the next rank receives a T
  // ==== BEGIN EXERCISE: send ====
  if (r < last) {  // pass it on (a send takes a View<const float>)
    const float y_out = static_cast<float>(y);
    comm.send(View<const float>(&y_out, 1), r + 1);
  }
  // ==== END EXERCISE ====
