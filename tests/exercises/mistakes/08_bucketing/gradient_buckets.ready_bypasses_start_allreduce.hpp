// mistake: gradient_ready averages the full bucket without start_allreduce — it hands the slice
// to the averaging itself: the slice is averaged, but the scheduler logs no start and keeps no
// ticket, so finish() has nothing to wait for (step() happens to wait for all the averaging after it).
// expect: 1
// expect-message: diagnosis: the bucket schedule is wrong: [0-9]+ buckets of [0-9]+ never started through start_allreduce. bucket 0 .* is one, though every one of its tensors was made ready — yet the gradient came out averaged, so its slice was averaged some other way: start a bucket with start_allreduce.b.
// expect-message: which hole: your ready hole fails
// ==== BEGIN EXERCISE: ready ====
    if (--missing_[static_cast<std::size_t>(b)] == 0) {
      const Bucket& bucket = buckets_[static_cast<std::size_t>(b)];
      averaging_.start(grad_.sub(bucket.offset, bucket.count));
    }
// ==== END EXERCISE ====
