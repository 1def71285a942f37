// mistake: adding each closed bucket at the front — buckets.insert(begin) keeps them in memory
// order, so bucket 0 holds the tensors the backward pass makes ready last.
// expect: 1
// expect-message: diagnosis: the bucket plan is wrong: the buckets are listed in memory order: bucket 0 \(b1, W1\) holds the tensors the backward pass makes ready last
// expect-no-message: closes its buckets as if the size were
// ==== BEGIN EXERCISE: plan ====
  Bucket open;
  for (int t = static_cast<int>(tensors.size()) - 1; t >= 0; --t) {
    open.offset = tensors[t].offset;
    open.count += tensors[t].count;
    open.tensors.push_back(t);
    if (open.count * sizeof(float) >= bucket_bytes) {
      buckets.insert(buckets.begin(), open);  // the bug: at the front
      open = Bucket{};
    }
  }
  if (!open.tensors.empty()) buckets.insert(buckets.begin(), open);
// ==== END EXERCISE ====
