// mistake: gradient_ready tests the count minus one and never stores it — the count of tensors
// still missing never drops, so only a bucket of one tensor ever starts.
// expect: 1
// expect-message: FAIL +2 ranks +--check --strategy bucket .*: wrong results
// expect-message: diagnosis: the bucket schedule is wrong: 2 buckets of 2 never started through start_allreduce. bucket 0 \(b3, W3, b2, W2\) is one, though every one of its tensors was made ready. its count of tensors still missing is still 4: no ready tensor counted itself off
// expect-no-message: post-decrement
// ==== BEGIN EXERCISE: ready ====
    // One tensor fewer to wait for in bucket b; when none is left, the bucket is full.
    if (missing_[static_cast<std::size_t>(b)] - 1 == 0) start_allreduce(b);  // the bug: nothing is stored
// ==== END EXERCISE ====
