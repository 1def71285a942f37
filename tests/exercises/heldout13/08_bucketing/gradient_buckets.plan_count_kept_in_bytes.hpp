// mistake: the bucket's count is kept in bytes (count * sizeof(float)) though Bucket::count is in floats, so slices are 4 times too long and buckets close early
  // ==== BEGIN EXERCISE: plan ====
  Bucket open;
  for (int t = static_cast<int>(tensors.size()) - 1; t >= 0; --t) {
    // Backward order walks the array from its end: each tensor lies just BEFORE the bucket.
    open.offset = tensors[t].offset;
    open.count += tensors[t].count * sizeof(float);
    open.tensors.push_back(t);
    if (open.count * sizeof(float) >= bucket_bytes) {
      buckets.push_back(open);
      open = Bucket{};
    }
  }
  if (!open.tensors.empty()) buckets.push_back(open);  // the last bucket, not full: still averaged
  // ==== END EXERCISE ====
