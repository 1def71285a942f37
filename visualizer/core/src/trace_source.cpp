#include "viz/trace_source.hpp"

#include <fstream>
#include <sstream>

namespace ringlab::viz {

LoadedTrace parse_trace(const std::string& text) {
  LoadedTrace out;
  auto refuse = [&](const std::string& why) {
    out.error = why;
    return out;
  };
  if (text.empty()) return refuse("empty file: a ringlab trace starts with a header line");
  std::size_t pos = 0, line_no = 0;
  auto note = [&](const std::string& what) {
    ++out.skipped;
    if (out.notes.size() < 20) out.notes.push_back("line " + std::to_string(line_no) + ": " + what);
  };
  while (pos < text.size()) {
    std::size_t nl = text.find('\n', pos);
    const bool last_unterminated = nl == std::string::npos;
    if (last_unterminated) nl = text.size();
    std::string_view line(text.data() + pos, nl - pos);
    pos = nl + 1;
    ++line_no;
    if (line.size() > kMaxFrameBytes) {
      if (line_no == 1) return refuse("line 1 is longer than 1 MiB: not a ringlab trace");
      note("longer than 1 MiB");
      continue;
    }
    if (line_no == 1) {
      std::string err;
      auto h = trace::decode_header(line, &err);
      if (!h) return refuse("header: " + err);
      if (h->ranks > kMaxRanks)
        return refuse("the trace has " + std::to_string(h->ranks) + " ranks; the visualizer draws 1 to " +
                      std::to_string(kMaxRanks));
      out.header = *h;
      continue;
    }
    if (line.empty()) continue;
    std::string err;
    auto e = trace::decode_event(line, &err);
    if (!e) {
      note(last_unterminated ? "truncated (" + err + ")" : err);
      continue;
    }
    if (e->rank >= out.header->ranks || e->peer >= out.header->ranks) {
      note("rank or peer outside 0.." + std::to_string(out.header->ranks - 1));
      continue;
    }
    out.events.push_back(std::move(*e));
  }
  // A header followed only by lines that are not events is a corrupt file, not a run with
  // nothing in it: refuse it in one line rather than open an empty window.
  if (out.events.empty() && out.skipped > 0) {
    out.header.reset();
    out.error = "no readable event: all " + std::to_string(out.skipped) +
                " event lines are bad (first: " + out.notes.front() + ")";
  }
  return out;
}

LoadedTrace load_trace_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {.error = "cannot open '" + path + "'"};
  std::ostringstream text;
  text << in.rdbuf();
  return parse_trace(text.str());
}

}  // namespace ringlab::viz
