// mistake: packing in forward order (W1 first) — the averages are right, but a bucket holds
// gradients the backward pass makes ready far apart, so its allreduce starts late.
// expect: 1
// expect-message: FAIL +2 ranks +--check --strategy bucket .*: wrong results
// expect-message: schedule WRONG: bucket 0 holds W1 where the backward pass makes b3 ready: pack the tensors in backward order
// expect-message: which hole: your plan hole fails with the reference ready and finish
// expect-message: your ready hole passes with the reference plan and finish
// expect-message: your finish hole passes with the reference plan and ready
// ==== BEGIN EXERCISE: plan ====
  Bucket open;
  for (int t = 0; t < static_cast<int>(tensors.size()); ++t) {  // the bug: forward order
    if (open.tensors.empty()) open.offset = tensors[t].offset;
    open.count += tensors[t].count;
    open.tensors.push_back(t);
    if (open.count * sizeof(float) >= bucket_bytes) {
      buckets.push_back(open);
      open = Bucket{};
    }
  }
  if (!open.tensors.empty()) buckets.push_back(open);
// ==== END EXERCISE ====
