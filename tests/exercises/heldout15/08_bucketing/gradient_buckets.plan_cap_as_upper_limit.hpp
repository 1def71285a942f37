// mistake: bucket_bytes is treated as a cap not to exceed: a bucket closes as soon as the next tensor would take it past bucket_bytes, instead of once it holds bucket_bytes or more
  // ==== BEGIN EXERCISE: plan ====
  Bucket open;
  for (int t = static_cast<int>(tensors.size()) - 1; t >= 0; --t) {
    // Backward order walks the array from its end: each tensor lies just BEFORE the bucket.
    open.offset = tensors[t].offset;
    open.count += tensors[t].count;
    open.tensors.push_back(t);
    const std::size_t next = t > 0 ? tensors[t - 1].count : 0;
    if ((open.count + next) * sizeof(float) > bucket_bytes) {
      buckets.push_back(open);
      open = Bucket{};
    }
  }
  if (!open.tensors.empty()) buckets.push_back(open);  // the last bucket, not full: still averaged
  // ==== END EXERCISE ====
