// The common flags, and the parse both mains share: a bad flag is one line and exit 2 (fail).
#include <cstdarg>
#include <cstdio>

#include "shell.hpp"
#include "theme.hpp"

namespace ringlab::viz {

void add_common_flags(CLI::App& cli, CommonFlags& o) {
  cli.add_option("--width", o.width, "Window width")->capture_default_str()->check(CLI::Range(320, 7680));
  cli.add_option("--height", o.height, "Window height")->capture_default_str()->check(CLI::Range(240, 4320));
  cli.add_option("--size", o.size,
                 "Window size as WIDTHxHEIGHT (e.g. 1920x1080), instead of --width/--height");
  cli.add_option("--theme", o.theme, "Colours: dark (screens, projectors) or light (paper: the handout)")
      ->capture_default_str()
      ->check(CLI::IsMember({"dark", "light"}));
  cli.add_flag("--summary-on-exit", o.summary, "Print every run's event count per rank when exiting");
  cli.add_flag("--quit-when-done", o.quit_when_done, "Exit once a live run's ranks have all disconnected");
  cli.add_option("--max-seconds", o.max_seconds, "Exit after this many seconds (tests)");
}

int parse_flags(CLI::App& cli, int argc, char** argv, const char* program, CommonFlags& o) {
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {  // --help is one too, with exit code 0
    return e.get_exit_code() == 0 ? cli.exit(e) : fail(2, "%s: error: %s (see --help)", program, e.what());
  }
  int w = 0, h = 0;
  char extra = 0;
  if (!o.size.empty() && (std::sscanf(o.size.c_str(), "%dx%d%c", &w, &h, &extra) != 2 || w < 320 ||
                          w > 7680 || h < 240 || h > 4320))
    return fail(2, "%s: error: --size '%s': give WIDTHxHEIGHT, 320x240 to 7680x4320", program,
                o.size.c_str());
  if (!o.size.empty()) o.width = w, o.height = h;
  use_theme(o.theme == "light" ? Theme::light : Theme::dark);  // CLI11 checked the name
  return -1;
}

int fail(int exit_code, const char* format, ...) {
  va_list args;
  va_start(args, format);
  std::vfprintf(stderr, format, args);
  va_end(args);
  std::fputc('\n', stderr);
  return exit_code;
}

}  // namespace ringlab::viz
