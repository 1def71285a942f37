    // ==== BEGIN EXERCISE: finish ====
    for (int b = 0; b < static_cast<int>(bucket_of_.size()); ++b) wait_for(b);
    // ==== END EXERCISE ====
