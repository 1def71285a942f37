// mistake: listing each bucket's tensors in memory order — inserting at the front while walking
// backward: the buckets hold the right tensors, but the schedule reads their lists as the order
// the gradients become ready.
// expect: 1
// expect-message: FAIL +2 ranks +--check --strategy bucket .*: wrong results
// expect-message: diagnosis: the bucket plan is wrong: bucket 0 lists its tensors W2, b2, W3, b3; the backward pass makes them ready b3, W3, b2, W2
// expect-message: which hole: your plan hole fails with the reference ready and finish
// ==== BEGIN EXERCISE: plan ====
  Bucket open;
  for (int t = static_cast<int>(tensors.size()) - 1; t >= 0; --t) {
    open.offset = tensors[t].offset;
    open.count += tensors[t].count;
    open.tensors.insert(open.tensors.begin(), t);  // the bug: memory order, not the order of the walk
    if (open.count * sizeof(float) >= bucket_bytes) {
      buckets.push_back(open);
      open = Bucket{};
    }
  }
  if (!open.tensors.empty()) buckets.push_back(open);
// ==== END EXERCISE ====
