// mistake: finish() calls the averaging's wait_all() — every slice is averaged after it, but no
// bucket's wait is logged, so the check cannot tell it from a finish that waits for nothing.
// expect: 1
// expect-message: which hole: your finish hole fails
// expect-message: finish\(\) logged no wait for any of its [0-9]+ buckets: one possibility is that it waits for none
// expect-message: another, that it waited some other way than wait_for\(b\)
// ==== BEGIN EXERCISE: finish ====
    averaging_.wait_all();  // the bug: no wait_for(b), nothing logged
// ==== END EXERCISE ====
