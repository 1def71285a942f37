// mistake: a bucket's count kept in bytes — Bucket::count counts floats, so each slice is 4 times
// as long as its tensors and the first one runs past the end of the gradient.
// expect: 1
// expect-message: diagnosis: the bucket plan is wrong: bucket 0's slice .* does not lie inside the gradient .*; its tensors .* lie in .*: it cannot be averaged; its offset is right, but its count, [0-9]+, is 4 times its tensors' [0-9]+ floats: the count is in bytes
// expect-message: That is your plan hole
// ==== BEGIN EXERCISE: plan ====
  Bucket open;
  for (int t = static_cast<int>(tensors.size()) - 1; t >= 0; --t) {
    // Backward order walks the array from its end: each tensor lies just BEFORE the bucket.
    open.offset = tensors[t].offset;
    open.count += tensors[t].count * sizeof(float);  // the bug: bytes, where count is in floats
    open.tensors.push_back(t);
    if (open.count >= bucket_bytes) {
      buckets.push_back(open);
      open = Bucket{};
    }
  }
  if (!open.tensors.empty()) buckets.push_back(open);  // the last bucket, not full: still averaged
// ==== END EXERCISE ====
