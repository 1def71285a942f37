// mistake: finish() waits for each bucket's ticket where its number belongs — in the first
// step the averaging's tickets happen to be 0, 1, ...; they count on across steps, so from the
// second step on the ticket is no bucket at all.
// expect: 4
// expect-message: error: wait_for.[0-9]+.: no bucket [0-9]+ — there are [0-9]+, numbered 0 to [0-9]+ .[0-9]+ is bucket 0's ticket, ticket_.0.: wait_for takes the bucket's number.
// expect-message: which hole: your finish hole crashes
// ==== BEGIN EXERCISE: finish ====
    for (int b = 0; b < static_cast<int>(buckets_.size()); ++b) wait_for(ticket_[static_cast<std::size_t>(b)]);
// ==== END EXERCISE ====
