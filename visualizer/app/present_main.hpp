// ringlab-viz --present DECK: presenter mode (present_main.cpp), a mode of the same program.
#pragma once
#include <string>

#include "views.hpp"

namespace ringlab::viz {

struct PresentOptions {
  std::string deck;
  bool notes = false, fullscreen = false, measure = false, summary = false, quit_when_done = false;
  bool check = false;  // run every demo once (deck_check.hpp) and exit: 0 all good, 2 problems
  int slide = 1;  // start here (1-based)
  int width = 1280, height = 720;
  std::string screenshot, export_dir, keys;
  double max_seconds = 0;
};

// Runs the presenter; returns the exit code (2: bad deck or options, 3: no display).
int run_presenter(const PresentOptions& options, App& app);

}  // namespace ringlab::viz
