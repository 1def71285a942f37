// mistake: passing on what arrived instead of the new sum — every rank adds its terms, then sends the old value on.
// expect: 1
// expect-message: wrong results
// expect-message: diagnosis: the last rank's result holds only its own terms: what reached it carried none of the other ranks' terms — your receive hole passes with the reference, which leaves one cause: each rank sends something other than its new sum
// ==== BEGIN EXERCISE: send ====
  if (r < last) comm.send(View<const T>(&received, 1), r + 1);  // the bug: &received, not &y
// ==== END EXERCISE ====
