  // ==== BEGIN EXERCISE: plan ====
  Bucket open;
  int t = static_cast<int>(tensors.size()) - 1;
  while (--t >= 0) {
    // Backward order walks the array from its end: each tensor lies just BEFORE the bucket.
    open.offset = tensors[t].offset;
    open.count += tensors[t].count;
    open.tensors.push_back(t);
    if (open.count * sizeof(float) >= bucket_bytes) {
      buckets.push_back(open);
      open = Bucket{};
    }
  }
  if (!open.tensors.empty()) buckets.push_back(open);  // the last bucket, not full: still averaged
  // ==== END EXERCISE ====
