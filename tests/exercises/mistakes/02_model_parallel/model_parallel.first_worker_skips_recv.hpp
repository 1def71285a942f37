// mistake: rank 1 skipping its receive (r > 1 where r > 0 belongs) — rank 0's sum is lost.
// expect: 1
// expect-message: diagnosis: rank 1 received 0 from rank 0, whose y .*: what reached rank 1 is rank 0's y before it added its terms — one possibility is that rank 0 sends in its receive hole, .*; another, that rank 1 does not receive it into y \(your receive hole\)
// ==== BEGIN EXERCISE: receive ====
  if (r > 1) comm.recv(View<T>(&y, 1), r - 1);  // the bug: r > 1, not r > 0
// ==== END EXERCISE ====
