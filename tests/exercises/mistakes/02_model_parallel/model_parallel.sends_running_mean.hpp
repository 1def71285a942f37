// mistake: handing on the running mean y / (r + 1) where the sum y belongs — the chain carries
// a partial sum; its mean is a later, different question.
// expect: 1
// expect-message: which hole: your send hole fails with the reference receive
// expect-message: what reached rank 2 is that y divided by 2, the number of ranks whose terms it holds \(rank 1's number \+ 1\): a mean where the chain hands on their sum
// expect-no-message: what it received or y before adding its terms
// ==== BEGIN EXERCISE: send ====
  const T mean = y / static_cast<T>(r + 1);  // the bug: the mean so far, not the sum
  if (r < last) comm.send(View<const T>(&mean, 1), r + 1);
// ==== END EXERCISE ====
