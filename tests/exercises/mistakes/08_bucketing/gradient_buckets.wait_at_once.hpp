// mistake: waiting for each bucket right after starting it — the gradients are right, but the
// backward pass stands still during every allreduce, so nothing overlaps.
// expect: 1
// expect-message: FAIL +2 ranks +--check --strategy bucket .*: wrong results
// expect-message: schedule WRONG: waited for bucket 0 while the backward pass still had gradients to compute
// expect-message: which hole: your ready hole fails with the reference plan and finish
// expect-message: your plan hole passes with the reference ready and finish
// expect-message: your finish hole passes with the reference plan and ready
// ==== BEGIN EXERCISE: ready ====
    if (--missing_[static_cast<std::size_t>(b)] == 0) {
      start_allreduce(b);
      wait_for(b);  // the bug: the next layer's backward waits for this allreduce
    }
// ==== END EXERCISE ====
