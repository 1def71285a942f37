// mistake: a bucket closed by clearing its tensor list only — the next bucket starts with the
// count of the one before: its slice runs on over the earlier buckets' tensors.
// expect: 1
// expect-message: diagnosis: the bucket plan is wrong: bucket 1's slice is .*, but its tensors .* lie in .*: the averaging would miss part of them, or average what is not theirs; its offset is right, but its count, [0-9]+, is its tensors' [0-9]+ plus the [0-9]+ of the buckets before it: the count carried over
// expect-message: That is your plan hole
// ==== BEGIN EXERCISE: plan ====
  Bucket open;
  for (int t = static_cast<int>(tensors.size()) - 1; t >= 0; --t) {
    open.offset = tensors[t].offset;
    open.count += tensors[t].count;
    open.tensors.push_back(t);
    if (open.count * sizeof(float) >= bucket_bytes) {
      buckets.push_back(open);
      open.tensors.clear();  // the bug: the count stays, the next bucket starts from it
    }
  }
  if (!open.tensors.empty()) buckets.push_back(open);
// ==== END EXERCISE ====
