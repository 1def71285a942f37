// mistake: the plan's walk goes one tensor too far — the loop runs down to t = -1, so the last
// bucket lists tensor -1 and reads what lies before the array.
// expect: 1
// expect-message: bucket [0-9]+ lists tensor -1, and there are [0-9]+ tensors, 0 to [0-9]+: one before the first — the walk goes on past tensor 0
// ==== BEGIN EXERCISE: plan ====
  Bucket open;
  for (int t = static_cast<int>(tensors.size()) - 1; t >= -1; --t) {  // the bug: down to -1
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
