// mistake: the bucket's offset set to the end of the tensor that joins (offset + count) — the
// offset is where the tensor starts; every slice sits one tensor too far on.
// expect: 1
// expect-message: its count is right, but its offset, [0-9]+, is where the last tensor to join \(.*\) ends, not where it starts
// expect-message: That is your plan hole
// ==== BEGIN EXERCISE: plan ====
  Bucket open;
  for (int t = static_cast<int>(tensors.size()) - 1; t >= 0; --t) {
    // Backward order walks the array from its end: each tensor lies just BEFORE the bucket.
    open.offset = tensors[t].offset + tensors[t].count;  // the bug: its start, not its end
    open.count += tensors[t].count;
    open.tensors.push_back(t);
    if (open.count * sizeof(float) >= bucket_bytes) {
      buckets.push_back(open);
      open = Bucket{};
    }
  }
  if (!open.tensors.empty()) buckets.push_back(open);  // the last bucket, not full: still averaged
// ==== END EXERCISE ====
