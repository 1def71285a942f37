    // ==== BEGIN EXERCISE: ready ====
    // One more tensor ready in bucket b; when all of them are, the bucket is full.
    if (++missing_[static_cast<std::size_t>(b)] == static_cast<int>(buckets_[static_cast<std::size_t>(b)].tensors.size()))
      start_allreduce(b);
    // ==== END EXERCISE ====
