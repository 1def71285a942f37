    // ==== BEGIN EXERCISE: ready ====
    // One tensor fewer to wait for in bucket b; when none is left, the bucket is full.
    if (--missing_[static_cast<std::size_t>(t)] == 0) start_allreduce(b);
    // ==== END EXERCISE ====
