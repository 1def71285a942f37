// mistake: finish() calls the averaging's wait_all() directly instead of wait_for(b) for every bucket (no wait is logged per bucket)
    // ==== BEGIN EXERCISE: finish ====
    averaging_.wait_all();
    // ==== END EXERCISE ====
