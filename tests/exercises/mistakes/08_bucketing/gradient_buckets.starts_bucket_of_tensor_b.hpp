// mistake: the full bucket started as start_allreduce(bucket_of_[b]) — the tensor-to-bucket map
// read with a bucket's number: the bucket of tensor b starts, not bucket b.
// expect: 1
// expect-message: diagnosis: the bucket schedule is wrong: bucket [0-9]+ started before [bW][0-9] was ready: the ready tensor [bW][0-9] had just filled bucket [0-9]+, and bucket [0-9]+ started in its place — start_allreduce was given another number than the full bucket's
// ==== BEGIN EXERCISE: ready ====
    // One tensor fewer to wait for in bucket b; when none is left, the bucket is full.
    if (--missing_[static_cast<std::size_t>(b)] == 0) start_allreduce(bucket_of_[static_cast<std::size_t>(b)]);  // the bug
// ==== END EXERCISE ====
