// mistake: forgetting the last, partial bucket — the tensors left in the open bucket after the
// loop (here the first layer's b1 and W1) are never averaged.
// expect: 1
// expect-message: FAIL +2 ranks +--check --strategy bucket .*: wrong results
// expect-message: averaged gradient vs after's: .*expected .* got
// expect-message: schedule WRONG: tensors W1, b1 are not in exactly one bucket
// ==== BEGIN EXERCISE: plan ====
  Bucket open;
  for (int t = static_cast<int>(tensors.size()) - 1; t >= 0; --t) {
    open.offset = tensors[t].offset;
    open.count += tensors[t].count;
    open.tensors.push_back(t);
    if (open.count * sizeof(float) >= bucket_bytes) {
      buckets.push_back(open);
      open = Bucket{};
    }
  }
  // the bug: the open bucket is dropped here
// ==== END EXERCISE ====
