// mistake: the plan records each tensor as t + 1 — counted from 1, as lesson 09 counts its
// layers — while the walk reads the right tensor's size: every index is one too high.
// expect: 1
// expect-message: bucket 0 lists tensor [0-9]+, and there are [0-9]+ tensors, 0 to [0-9]+: one past the last — every index a bucket lists is one more than that of the tensor whose size its count holds
// expect-message: what it recorded is t \+ 1 where t belongs
// expect-no-message: the walk starts at tensors.size\(\)
// ==== BEGIN EXERCISE: plan ====
  Bucket open;
  for (int t = static_cast<int>(tensors.size()) - 1; t >= 0; --t) {
    open.offset = tensors[t].offset;
    open.count += tensors[t].count;
    open.tensors.push_back(t + 1);  // the bug: 1-based
    if (open.count * sizeof(float) >= bucket_bytes) {
      buckets.push_back(open);
      open = Bucket{};
    }
  }
  if (!open.tensors.empty()) buckets.push_back(open);
// ==== END EXERCISE ====
