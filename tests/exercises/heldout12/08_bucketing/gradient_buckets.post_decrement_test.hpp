// mistake: post-decrement in the test (missing_[b]-- == 0) compares the count before it drops, so no bucket's allreduce ever starts
    // ==== BEGIN EXERCISE: ready ====
    // One tensor fewer to wait for in bucket b; when none is left, the bucket is full.
    if (missing_[static_cast<std::size_t>(b)]-- == 0) start_allreduce(b);
    // ==== END EXERCISE ====
