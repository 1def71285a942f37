// mistake: gradient_ready starts a bucket when the ready tensor is the last one listed in it,
// and never counts the bucket's tensors down — the starts come at the right time, the counts
// never move.
// expect: 1
// expect-message: which hole: your ready hole fails
// expect-message: its count of tensors still missing is [0-9]+ at the end of the step, not 0: it was [0-9]+, its full size, when the bucket started, too: no ready tensor counted itself off
// expect-no-message: set back during the step
// ==== BEGIN EXERCISE: ready ====
    if (t == buckets_[static_cast<std::size_t>(b)].tensors.back()) start_allreduce(b);  // the bug
// ==== END EXERCISE ====
