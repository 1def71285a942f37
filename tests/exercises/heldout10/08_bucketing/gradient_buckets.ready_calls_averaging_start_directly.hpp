    // ==== BEGIN EXERCISE: ready ====
    // One tensor fewer to wait for in bucket b; when none is left, the bucket is full.
    if (--missing_[static_cast<std::size_t>(b)] == 0) {
      const Bucket& bucket = buckets_[static_cast<std::size_t>(b)];
      (void)averaging_.start(grad_.sub(bucket.offset, bucket.count));  // start averaging its slice
    }
    // ==== END EXERCISE ====
