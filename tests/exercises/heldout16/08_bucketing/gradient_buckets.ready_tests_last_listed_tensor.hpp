// mistake: a bucket counts as full when the tensor that is ready is the last one listed in it, instead of counting missing_[b] down; the start happens at the right time in backward order but missing_ is never decremented
    // ==== BEGIN EXERCISE: ready ====
    // One tensor fewer to wait for in bucket b; when none is left, the bucket is full.
    if (t == buckets_[static_cast<std::size_t>(b)].tensors.back()) start_allreduce(b);
    // ==== END EXERCISE ====
