// held-out mistake (README.md): only the holes that differ from the solution;
// scripts/ringlab-exercise fill SOLUTION THIS OUT makes the whole header.
// ==== BEGIN EXERCISE: finish ====
    for (int b = 0; b < static_cast<int>(buckets_.size()) - 1; ++b) wait_for(b);
// ==== END EXERCISE ====
