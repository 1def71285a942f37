// mistake: passing on what arrived instead of the new sum — every rank adds its terms, then sends the old value on.
// expect: 1
// expect-message: wrong results
// expect-message: diagnosis: the last rank's result holds only its own terms: nothing that arrived was added to the sum
// ==== BEGIN EXERCISE: send ====
  if (r < last) comm.send(View<const T>(&received, 1), r + 1);  // the bug: &received, not &y
// ==== END EXERCISE ====
