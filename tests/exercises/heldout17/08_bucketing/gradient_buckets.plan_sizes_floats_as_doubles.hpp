// mistake: the bucket's size in bytes counts 8 bytes per element (sizeof(double), as lesson 02's buffers), so buckets close at half the floats
  // ==== BEGIN EXERCISE: plan ====
  Bucket open;
  for (int t = static_cast<int>(tensors.size()) - 1; t >= 0; --t) {
    // Backward order walks the array from its end: each tensor lies just BEFORE the bucket.
    open.offset = tensors[t].offset;
    open.count += tensors[t].count;
    open.tensors.push_back(t);
    if (open.count * sizeof(double) >= bucket_bytes) {
      buckets.push_back(open);
      open = Bucket{};
    }
  }
  if (!open.tensors.empty()) buckets.push_back(open);  // the last bucket, not full: still averaged
  // ==== END EXERCISE ====
