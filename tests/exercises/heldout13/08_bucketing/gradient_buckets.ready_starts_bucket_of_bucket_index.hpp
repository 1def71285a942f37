// mistake: the full bucket is started as start_allreduce(bucket_of_[b]): the tensor-to-bucket map is applied to a bucket number, starting the bucket of tensor b instead of bucket b
    // ==== BEGIN EXERCISE: ready ====
    // One tensor fewer to wait for in bucket b; when none is left, the bucket is full.
    if (--missing_[static_cast<std::size_t>(b)] == 0) start_allreduce(bucket_of_[static_cast<std::size_t>(b)]);
    // ==== END EXERCISE ====
