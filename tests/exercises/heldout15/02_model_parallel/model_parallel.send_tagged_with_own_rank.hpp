// mistake: the send labels the message with the sender's rank as tag (as the pipeline labels with m); the receive uses tag 0
  // ==== BEGIN EXERCISE: send ====
  if (r < last) comm.send(View<const T>(&y, 1), r + 1, r);  // pass it on
  // ==== END EXERCISE ====
