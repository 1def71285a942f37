    // ==== BEGIN EXERCISE: ready ====
    // One tensor fewer to wait for in bucket b; when none is left, the bucket is full.
    int missing = missing_[static_cast<std::size_t>(b)];
    if (--missing == 0) start_allreduce(b);
    // ==== END EXERCISE ====
