// mistake: the tensor's index is pushed after the full-bucket test, so the tensor that fills a bucket is listed in the next bucket while its floats stay in the closed bucket's slice
  // ==== BEGIN EXERCISE: plan ====
  Bucket open;
  for (int t = static_cast<int>(tensors.size()) - 1; t >= 0; --t) {
    // Backward order walks the array from its end: each tensor lies just BEFORE the bucket.
    open.offset = tensors[t].offset;
    open.count += tensors[t].count;
    if (open.count * sizeof(float) >= bucket_bytes) {
      buckets.push_back(open);
      open = Bucket{};
    }
    open.tensors.push_back(t);
  }
  if (!open.tensors.empty()) buckets.push_back(open);  // the last bucket, not full: still averaged
  // ==== END EXERCISE ====
