#include "ringlab/base/log.hpp"

#include <unistd.h>

#include <cstdlib>

namespace ringlab {
namespace {
int g_rank = -1, g_size = 0;
const char* kNames[] = {"error", "warning", "info", "debug", "trace"};
}  // namespace

std::optional<Level> parse_level(const std::string& name) {
  for (int i = 0; i <= 4; ++i)
    if (name == kNames[i]) return static_cast<Level>(i);
  return std::nullopt;
}

Level log_level() {
  // Read once: the environment does not change during a run.
  static const Level level = [] {
    const char* env = std::getenv("RINGLAB_LOG_LEVEL");
    return (env ? parse_level(env) : std::nullopt).value_or(Level::info);  // unset or unknown: info
  }();
  return level;
}

void set_log_rank(int rank, int size) {
  g_rank = rank;
  g_size = size;
}

LogLine::~LogLine() {
  if (!on_) return;
  std::string line;
  if (g_rank >= 0) line = "[rank " + std::to_string(g_rank) + "/" + std::to_string(g_size) + "] ";
  if (level_ != Level::info) line += std::string(kNames[static_cast<int>(level_)]) + ": ";
  line += out_.str() + '\n';
  // One write() per line: lines from different ranks sharing a terminal stay whole.
  [[maybe_unused]] const ssize_t written = ::write(STDERR_FILENO, line.data(), line.size());
}

}  // namespace ringlab
