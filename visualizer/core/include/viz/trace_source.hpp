// Reading a recorded ringlab trace (docs/trace-format.md) into memory, with every problem
// reported as a note instead of a crash: a bad header or an unknown version refuses the file,
// a bad event line is skipped and counted.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "ringlab/trace/trace.hpp"

namespace ringlab::viz {

inline constexpr std::size_t kMaxFrameBytes = 1 << 20;  // one line/frame: 1 MiB, as the format says
inline constexpr int kMaxRanks = 64;                    // the views draw 1..64 ranks

struct LoadedTrace {
  std::optional<trace::Header> header{};  // empty when the file was refused
  std::vector<trace::Event> events{};     // in file order
  std::string error{};                    // why the file was refused (header missing, bad version,
                                          // no event line readable, ...)
  std::vector<std::string> notes{};       // lines that were skipped, and why (the first 20)
  std::size_t skipped = 0;
  bool ok() const { return header.has_value(); }
};

// Text already in memory (tests, and the file reader below).
LoadedTrace parse_trace(const std::string& text);
// A file on disk; a file that cannot be read is an error, not an exception.
LoadedTrace load_trace_file(const std::string& path);

}  // namespace ringlab::viz
