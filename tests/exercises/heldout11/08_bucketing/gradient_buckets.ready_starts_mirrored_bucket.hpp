    // ==== BEGIN EXERCISE: ready ====
    // One tensor fewer to wait for in bucket b; when none is left, the bucket is full.
    if (--missing_[static_cast<std::size_t>(b)] == 0) start_allreduce(static_cast<int>(buckets_.size()) - 1 - b);
    // ==== END EXERCISE ====
