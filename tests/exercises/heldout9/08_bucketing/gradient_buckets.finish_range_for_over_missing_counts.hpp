    // ==== BEGIN EXERCISE: finish ====
    for (int b : missing_) wait_for(b);
    // ==== END EXERCISE ====
