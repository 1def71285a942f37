// Checking a deck before the workshop, not in front of the room: every demo runs once, as R
// would start it, with a trace file instead of a live stream. A demo whose lesson refuses its
// flags or fails, and an `at:` past the run's last step, are each one line naming the deck's
// line. Needs no display.
#pragma once
#include <string>

#include "viz/deck.hpp"

namespace ringlab::viz {

// Runs the demos of `deck` (read from `deck_path`) with the kit's launcher and lessons; prints
// one line per demo (ok or the problem) and returns how many problems it found.
int check_deck_demos(const Deck& deck, const std::string& deck_path, const std::string& mpirun,
                     const std::string& bin_dir, double timeout_s);

}  // namespace ringlab::viz
