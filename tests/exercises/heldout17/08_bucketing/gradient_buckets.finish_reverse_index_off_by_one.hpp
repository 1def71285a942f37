// mistake: finish waits in reverse order as size() - b, one past the last bucket (should be size() - 1 - b)
    // ==== BEGIN EXERCISE: finish ====
    for (int b = 0; b < static_cast<int>(buckets_.size()); ++b) wait_for(static_cast<int>(buckets_.size()) - b);
    // ==== END EXERCISE ====
