// The flags both programs take, spelled the same in each: the window's size and colours, and
// what tests use to end a run. Each main adds its own flags beside these.
#pragma once
#include <CLI/CLI.hpp>
#include <string>

namespace ringlab::viz {

struct CommonFlags {
  int width = 1280, height = 720;
  std::string size;  // --size WxH: sets width and height
  std::string theme = "dark";
  double max_seconds = 0;
  bool summary = false, quit_when_done = false;
};
void add_common_flags(CLI::App& cli, CommonFlags& o);

// Parses argv, then applies --size (to width and height) and --theme (to the palette). False
// when `program` must exit now with *exit_code: 0 after --help, 2 after one error line.
bool parse_flags(CLI::App& cli, int argc, char** argv, const char* program, CommonFlags& o, int* exit_code);

}  // namespace ringlab::viz
