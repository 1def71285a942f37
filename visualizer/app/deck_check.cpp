// check_deck_demos: each demo of a deck run once, its exit code and its steps (presenter.hpp).
#include "presenter.hpp"

#include <unistd.h>

#include <cstdio>
#include <sstream>

#include "viz/launcher.hpp"
#include "viz/session.hpp"

namespace ringlab::viz {
namespace {
// The run's own reason, if it printed one: its last line that says "error", else its last line.
std::string last_words(const std::string& output) {
  std::string last, error;
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line.rfind("$ ", 0) == 0) continue;  // the launcher's own command line
    last = line;
    if (line.find("error") != std::string::npos) error = line;
  }
  return error.empty() ? last : error;
}
}  // namespace

int check_deck_demos(const Deck& deck, const std::string& deck_path, const std::string& mpirun,
                     const std::string& bin_dir, double timeout_s) {
  int problems = 0, demos = 0;
  const std::string trace = "/tmp/ringlab-deck-check-" + std::to_string(getpid()) + ".trace";
  for (std::size_t i = 0; i < deck.slides.size(); ++i) {
    const Slide& s = deck.slides[i];
    if (!s.has_demo) continue;
    ++demos;
    const Demo& d = s.demo;
    const std::string where = deck_path + ":" + std::to_string(d.line) + ": slide " + std::to_string(i + 1);
    // The demo run once, as R would start it (or its trace replayed), into `session`: what went
    // wrong, or "" when nothing did.
    Session session;
    auto run_once = [&]() -> std::string {
      if (d.lesson == 0) return session.open_file(d.trace) ? "" : "demo: cannot replay " + d.trace;
      std::vector<std::string> argv;
      std::string error;
      if (!lesson_command(mpirun, bin_dir, d.lesson, d.np, d.flags, "", argv, &error)) return error;
      if (!d.output_only()) argv.insert(argv.end(), {"--trace", trace});  // output only: streams nothing
      std::printf("%s: %s ...\n", where.c_str(), demo_command(d).c_str());
      std::fflush(stdout);
      Launcher run;
      if (!run.start(argv, &error)) return error;
      if (!run.wait(timeout_s)) run.stop();
      if (run.exit_code() != 0)
        return "demo `" + demo_command(d) + "` exited " + std::to_string(run.exit_code()) + ": " +
               last_words(run.output());
      if (!d.output_only() && !session.open_file(trace))
        return "demo `" + demo_command(d) + "` wrote no trace to check `at:` against";
      return "";
    };
    std::string problem = run_once();
    if (problem.empty() && d.lesson > 0 && d.output_only()) continue;  // no steps to check
    const int steps = session.current() ? static_cast<int>(session.current()->timeline.frames().size()) : 0;
    if (problem.empty() && d.at >= steps)
      problem = "demo: at: " + std::to_string(d.at) + ", but the run has " + std::to_string(steps) +
                " steps (0 to " + std::to_string(steps - 1) + ")";
    if (!problem.empty()) {
      std::fprintf(stderr, "ringlab-present: error: %s: %s\n", where.c_str(), problem.c_str());
      ++problems;
    } else {
      std::printf("%s: ok, %d steps%s\n", where.c_str(), steps,
                  d.at >= 0 ? (", at: " + std::to_string(d.at)).c_str() : "");
    }
  }
  unlink(trace.c_str());
  std::printf("deck check: %d demos, %d problem%s\n", demos, problems, problems == 1 ? "" : "s");
  return problems;
}

}  // namespace ringlab::viz
