// mistake: right after starting a full bucket's allreduce, gradient_ready re-arms its count (missing_[b] = its tensor count) "for the next step", so the step ends with the buckets looking empty
    // ==== BEGIN EXERCISE: ready ====
    // One tensor fewer to wait for in bucket b; when none is left, the bucket is full.
    if (--missing_[static_cast<std::size_t>(b)] == 0) {
      start_allreduce(b);
      missing_[static_cast<std::size_t>(b)] = static_cast<int>(buckets_[static_cast<std::size_t>(b)].tensors.size());
    }
    // ==== END EXERCISE ====
