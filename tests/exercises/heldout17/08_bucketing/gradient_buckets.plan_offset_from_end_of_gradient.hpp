// mistake: a bucket's offset is computed back from the end of the whole gradient, right only for the first bucket
  // ==== BEGIN EXERCISE: plan ====
  Bucket open;
  for (int t = static_cast<int>(tensors.size()) - 1; t >= 0; --t) {
    // Backward order walks the array from its end: each tensor lies just BEFORE the bucket.
    open.offset = tensors.back().offset + tensors.back().count - (open.count + tensors[t].count);
    open.count += tensors[t].count;
    open.tensors.push_back(t);
    if (open.count * sizeof(float) >= bucket_bytes) {
      buckets.push_back(open);
      open = Bucket{};
    }
  }
  if (!open.tensors.empty()) buckets.push_back(open);  // the last bucket, not full: still averaged
  // ==== END EXERCISE ====
