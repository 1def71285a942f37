// mistake: the allreduce starts when the bucket's count is still full (its first tensor ready), missing_[b]-- == size, instead of when the count reaches 0 (its last tensor ready)
    // ==== BEGIN EXERCISE: ready ====
    // One tensor fewer to wait for in bucket b; when none is left, the bucket is full.
    if (missing_[static_cast<std::size_t>(b)]-- == static_cast<int>(buckets_[static_cast<std::size_t>(b)].tensors.size()))
      start_allreduce(b);
    // ==== END EXERCISE ====
