// mistake: a bucket that never grows past the size — the open bucket is closed BEFORE the tensor
// that would take it past bucket_bytes (a cap, not a threshold), so the buckets stay smaller than
// the size and there are more of them (more messages, each paying α).
// expect: 1
// expect-message: FAIL +2 ranks +--check --strategy bucket .*: wrong results
// expect-message: schedule WRONG: bucket 0 \(b3, W3, b2\) holds 22.6 kB, less than bucket_bytes = 30000 .30.0 kB., and it is not the last bucket
// expect-message: diagnosis: the bucket plan is wrong: .*That is your plan hole; .\./ringlab hint 08. gives its rule
// ==== BEGIN EXERCISE: plan ====
  Bucket open;
  for (int t = static_cast<int>(tensors.size()) - 1; t >= 0; --t) {
    // the bug: closes the bucket before the tensor that would bring it past the size
    if (!open.tensors.empty() && (open.count + tensors[t].count) * sizeof(float) > bucket_bytes) {
      buckets.push_back(open);
      open = Bucket{};
    }
    open.offset = tensors[t].offset;
    open.count += tensors[t].count;
    open.tensors.push_back(t);
  }
  if (!open.tensors.empty()) buckets.push_back(open);
// ==== END EXERCISE ====
