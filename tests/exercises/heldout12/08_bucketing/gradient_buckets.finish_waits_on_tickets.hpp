// mistake: finish passes each bucket's ticket (ticket_[b]) to wait_for, which takes the bucket's number
    // ==== BEGIN EXERCISE: finish ====
    for (int b = 0; b < static_cast<int>(buckets_.size()); ++b) wait_for(ticket_[static_cast<std::size_t>(b)]);
    // ==== END EXERCISE ====
