// mistake: counting floats as bytes — the bucket is closed when open.count (floats) reaches
// bucket_bytes (bytes), so every bucket holds four times too much; here everything lands in one.
// expect: 1
// expect-message: FAIL +2 ranks +--check --strategy bucket .*: wrong results
// expect-message: schedule WRONG: bucket 0 \(b3, W3, b2, W2, b1, W1\) holds 64.1 kB. before its last tensor, W1, it held 39.0 kB, already bucket_bytes = 30000 .30.0 kB. or more
// expect-message: diagnosis: the bucket plan is wrong: .*That is your plan hole
// ==== BEGIN EXERCISE: plan ====
  Bucket open;
  for (int t = static_cast<int>(tensors.size()) - 1; t >= 0; --t) {
    open.offset = tensors[t].offset;
    open.count += tensors[t].count;
    open.tensors.push_back(t);
    if (open.count >= bucket_bytes) {  // the bug: floats compared with bytes
      buckets.push_back(open);
      open = Bucket{};
    }
  }
  if (!open.tensors.empty()) buckets.push_back(open);
// ==== END EXERCISE ====
