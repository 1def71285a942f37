// mistake: counting down the tensor's slot, not its bucket's — missing_ has one entry per bucket,
// so a tensor index past the number of buckets runs off its end.
// expect: 4
// expect-message: which hole: your ready hole crashes with the reference plan and finish
// expect-message: error: an index past the end of a std::vector<int>: operator\[\] was handed an index not smaller than the vector's size
    // ==== BEGIN EXERCISE: ready ====
    // One tensor fewer to wait for in bucket b; when none is left, the bucket is full.
    if (--missing_[static_cast<std::size_t>(t)] == 0) start_allreduce(b);  // the bug: t, not b
    // ==== END EXERCISE ====
