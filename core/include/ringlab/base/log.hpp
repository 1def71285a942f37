// Rank-prefixed logging. The level comes from RINGLAB_LOG_LEVEL (error, warning, info, debug,
// trace; default info), the way HOROVOD_LOG_LEVEL works. Logs go to stderr in one write per
// line so that lines from different ranks do not interleave mid-line.
//   ringlab::log(ringlab::Level::info) << "step " << s << " done";
#pragma once
#include <optional>
#include <sstream>
#include <string>

namespace ringlab {

enum class Level { error = 0, warning = 1, info = 2, debug = 3, trace = 4 };

std::optional<Level> parse_level(const std::string& name);
Level log_level();                      // the level in force
void set_log_rank(int rank, int size);  // called by Runtime once MPI is up

class LogLine {
 public:
  explicit LogLine(Level level) : on_(level <= log_level()), level_(level) {}
  LogLine(const LogLine&) = delete;
  ~LogLine();
  template <class T> LogLine& operator<<(const T& v) {
    if (on_) out_ << v;
    return *this;
  }

 private:
  bool on_;
  Level level_;
  std::ostringstream out_;
};

inline LogLine log(Level level) { return LogLine(level); }

}  // namespace ringlab
