// mistake: passing on what arrived instead of the new sum — every rank adds its terms, then sends the old value on.
// expect: 1
// expect-message: wrong results
// expect-message: diagnosis: rank 1 received 0 from rank 0, whose y .*: what reached rank 1 is rank 0's y before it added its terms — your receive hole passes with the reference, which leaves one cause: rank 0 sends what it received, or y before adding its terms \(your send hole\)
// ==== BEGIN EXERCISE: send ====
  if (r < last) comm.send(View<const T>(&received, 1), r + 1);  // the bug: &received, not &y
// ==== END EXERCISE ====
