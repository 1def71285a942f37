// held-out mistake (README.md): only the holes that differ from the solution;
// scripts/ringlab-exercise fill SOLUTION THIS OUT makes the whole header.
// ==== BEGIN EXERCISE: finish ====
    wait_for(static_cast<int>(buckets_.size()) - 1);
// ==== END EXERCISE ====
