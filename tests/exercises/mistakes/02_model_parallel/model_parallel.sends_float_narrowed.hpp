// mistake: sending the partial sum as a float where the next rank receives a T (a double) — the
// two views of one message must have the same element type.
// expect: 1
// expect-message: which hole: your send hole fails with the reference receive
// expect-message: took a message of 4 bytes, not a whole number of this receive's double elements \(8 bytes each\): the send and the receive move different element types
// expect-no-message: -32766
// ==== BEGIN EXERCISE: send ====
  const float narrowed = static_cast<float>(y);  // the bug: 4 bytes where the receive takes 8
  if (r < last) comm.send(View<const float>(&narrowed, 1), r + 1);
// ==== END EXERCISE ====
