// mistake: gradient_ready sets a bucket's count back to its size right after starting it, "ready
// for the next step" — new_step() does that; within the step the count must end at 0.
// expect: 1
// expect-message: which hole: your ready hole fails
// expect-message: its count of tensors still missing is [0-9]+ at the end of the step, not 0: it was set back during the step
// ==== BEGIN EXERCISE: ready ====
    if (--missing_[static_cast<std::size_t>(b)] == 0) {
      start_allreduce(b);
      missing_[static_cast<std::size_t>(b)] = static_cast<int>(buckets_[static_cast<std::size_t>(b)].tensors.size());  // the bug
    }
// ==== END EXERCISE ====
