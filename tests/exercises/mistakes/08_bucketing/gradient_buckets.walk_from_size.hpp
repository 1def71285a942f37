// mistake: the plan's walk starts one past the last tensor — t = tensors.size(), down to 1 — so
// the first bucket lists tensor n and reads its size from past the array.
// expect: 1
// expect-message: lists tensor [0-9]+, and there are [0-9]+ tensors, 0 to [0-9]+: one past the last — the walk starts at tensors.size\(\)
// ==== BEGIN EXERCISE: plan ====
  Bucket open;
  for (int t = static_cast<int>(tensors.size()); t > 0; --t) {  // the bug: from size(), where size() - 1 belongs
    open.offset = tensors[t].offset;
    open.count += tensors[t].count;
    open.tensors.push_back(t);
    if (open.count * sizeof(float) >= bucket_bytes) {
      buckets.push_back(open);
      open = Bucket{};
    }
  }
  if (!open.tensors.empty()) buckets.push_back(open);
// ==== END EXERCISE ====
