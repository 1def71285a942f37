    // ==== BEGIN EXERCISE: finish ====
    for (int b = 0; b < static_cast<int>(buckets_.size()); ++b) wait_for(b++);
    // ==== END EXERCISE ====
