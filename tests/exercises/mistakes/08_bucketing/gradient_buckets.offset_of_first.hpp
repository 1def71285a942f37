// mistake: a slice that starts at its first tensor — the offset is set only when the bucket
// opens, but the walk goes backwards, so each later tensor lies BEFORE it: bucket 0's slice runs
// past the end of the gradient. It must be diagnosed before any averaging, not crash inside it.
// expect: 1
// expect-message: FAIL +2 ranks +--check --strategy bucket .*: wrong results
// expect-message: diagnosis: the bucket plan is wrong: bucket 0's slice .16008, 25746. does not lie inside the gradient .0, 16018.. its tensors b3, W3, b2, W2 lie in .6280, 16018.
// expect-message: its count is right, but its offset is its first tensor's .b3, at 16008., not the last one's to join .W2, at 6280.: the offset must move down to each tensor as it joins
// expect-message: That is your plan hole
// expect-no-message: out of range|crashed
// ==== BEGIN EXERCISE: plan ====
  Bucket open;
  for (int t = static_cast<int>(tensors.size()) - 1; t >= 0; --t) {
    if (open.tensors.empty()) open.offset = tensors[t].offset;  // the bug: the offset of the first tensor
    open.count += tensors[t].count;
    open.tensors.push_back(t);
    if (open.count * sizeof(float) >= bucket_bytes) {
      buckets.push_back(open);
      open = Bucket{};
    }
  }
  if (!open.tensors.empty()) buckets.push_back(open);
// ==== END EXERCISE ====
