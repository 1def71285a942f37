// mistake: a receive view as long as the terms — View<T>(&y, x.size()) where the partial sum is one
// value: MPI lets the one-value message into the longer buffer without a word, and the view runs
// past y. The transport's rule 4 (a receive is the size of its send) refuses it.
// expect: 1
// expect-message: error: rank 1's receive from rank 0 \(tag 0\) was posted for [0-9]+ elements and took a message of 1, sent in chain_sum .*a receive must be the size of its send
// ==== BEGIN EXERCISE: receive ====
  if (r > 0) comm.recv(View<T>(&y, x.size()), r - 1);  // the bug: x.size() values, not 1
// ==== END EXERCISE ====
