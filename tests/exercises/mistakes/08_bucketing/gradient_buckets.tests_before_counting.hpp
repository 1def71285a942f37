// mistake: gradient_ready tests whether the bucket is full before it counts the tensor that just
// became ready — the count reaches 0 only after the last test, so no bucket ever starts.
// expect: 1
// expect-message: diagnosis: the bucket schedule is wrong: [0-9]+ buckets of [0-9]+ never started through start_allreduce. bucket 0 .* is one, though every one of its tensors was made ready. its count of tensors still missing went from [0-9]+ down to 0, yet no start came at 0: the test that starts it never saw the 0 .one possibility is a post-decrement.*— gradient_ready must call start_allreduce.b. when the ready tensor is the last one the bucket was missing
// ==== BEGIN EXERCISE: ready ====
    // One tensor fewer to wait for in bucket b; when none is left, the bucket is full.
    if (missing_[static_cast<std::size_t>(b)] == 0) start_allreduce(b);  // the bug: tested before counting
    --missing_[static_cast<std::size_t>(b)];
// ==== END EXERCISE ====
