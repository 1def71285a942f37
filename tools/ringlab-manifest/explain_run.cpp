// What a failed check run printed that says what went wrong (explain_run.hpp): one pass over the
// output, each line sorted into what it says, then the explanation in a fixed order.
#include "explain_run.hpp"

#include <algorithm>
#include <set>
#include <string_view>

namespace ringlab {

namespace {

bool has(const std::string& s, const std::string& p) { return s.find(p) != std::string::npos; }

// A line's words, split at spaces and tabs (as awk splits its fields).
std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while ((at = line.find_first_not_of(" \t", at)) != std::string::npos) {
    const auto end = line.find_first_of(" \t", at);
    out.push_back(line.substr(at, end - at));
    at = end;
  }
  return out;
}

bool digits(std::string_view w) {
  return !w.empty() && std::all_of(w.begin(), w.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// "[i] expected e got a" (ringlab::describe): "expected ", then " got " somewhere after it.
bool shows_a_difference(const std::string& line) {
  const auto e = line.find("expected ");
  return e != std::string::npos && line.find(" got ", e + 9) != std::string::npos;
}

// "[rank 1/3] error: [7] expected ..." -> "rank 1: [7] expected ..."; other lines as they are.
std::string without_rank_prefix(const std::string& line) {
  if (!line.starts_with("[rank ")) return line;
  const auto slash = line.find('/', 6), close = line.find("] ", 6);
  const std::string_view view(line);
  if (slash == std::string::npos || close == std::string::npos || slash > close ||
      !digits(view.substr(6, slash - 6)) || !digits(view.substr(slash + 1, close - slash - 1)))
    return line;
  std::size_t rest = close + 2;
  if (line.compare(rest, 7, "error: ") == 0) rest += 7;
  return "rank " + line.substr(6, slash - 6) + ": " + line.substr(rest);
}

// "#wrong 3" anywhere: a count of wrong elements that is not 0.
bool reports_wrong_count(const std::string& line) {
  for (auto at = line.find("#wrong "); at != std::string::npos; at = line.find("#wrong ", at + 1))
    if (at + 7 < line.size() && line[at + 7] >= '1' && line[at + 7] <= '9') return true;
  return false;
}

}  // namespace

std::vector<std::string> explain_run(std::istream& output, bool brief) {
  std::string header;     // the check table's header line (its last word is "#wrong")
  std::size_t width = 0;  // its number of words; a row of the table has as many
  std::string header_of_first_row, failed;
  // The last line the run printed before the watchdog's report: what the check was doing when it
  // hung ("chain sum  3 terms per rank, rank 0's weights all 0: ..."), shown above the report.
  std::string before_hang, last_plain;
  std::vector<std::string> rows, differences, hang, wrong, errors, diagnoses;
  std::set<std::string> seen_differences, seen_diagnoses;
  bool in_hang = false;
  for (std::string line; std::getline(output, line);) {
    const auto words = fields(line);
    if (!words.empty() && words.back() == "#wrong") {
      header = line;
      width = words.size();
      continue;
    }
    if (has(line, "ringlab watchdog: ranks blocked") && !in_hang) {
      in_hang = true;
      if (hang.empty()) before_hang = last_plain;
    }
    if (in_hang) {  // the watchdog's report, kept whole
      hang.push_back(line);
      if (has(line, "stopping every rank")) in_hang = false;
      continue;
    }
    if (width && words.size() == width && digits(words.back())) {  // a row of the table
      if (words.back().find_first_not_of('0') != std::string::npos) {
        if (rows.empty()) header_of_first_row = header;
        rows.push_back(line);
      }
      continue;
    }
    if (line.starts_with("diagnosis: ")) {  // (before the differences: its evidence may quote one)
      if (seen_diagnoses.insert(line).second) diagnoses.push_back(line);
      continue;
    }
    if (shows_a_difference(line)) {  // every rank prints its own: each different line once
      const std::string d = without_rank_prefix(line);
      if (seen_differences.insert(d).second) differences.push_back(d);
      continue;
    }
    if (line.starts_with("FAILED")) {
      failed = line;
      continue;
    }
    // (an error line that says WRONG is listed once, with the errors)
    const bool error = line.starts_with("error:") || has(line, "] error: ") || reports_wrong_count(line);
    if (has(line, " WRONG") && !error && wrong.size() < 2) wrong.push_back(line);
    if (error)
      errors.push_back(line);
    else if (!words.empty())
      last_plain = line;
  }

  const std::string indent = "    ";
  std::vector<std::string> out;
  if (brief) {
    if (!diagnoses.empty()) return {indent + diagnoses[0]};
    if (!rows.empty()) {  // the first wrong case as "count=12 type=int32 ..."
      const auto names = fields(header_of_first_row), values = fields(rows[0]);
      std::string the_case;
      for (std::size_t i = 0; i < values.size(); ++i)
        the_case += (i ? " " : "") + (i < names.size() ? names[i] : "") + "=" + values[i];
      return {indent + std::to_string(rows.size()) + " wrong case(s); the first: " + the_case};
    }
    for (const auto* first : {&hang, &errors, &differences})
      if (!first->empty()) return {indent + first->front()};
    return {};
  }
  for (const auto& l : wrong) out.push_back(indent + l);
  for (const auto& l : errors) out.push_back(indent + l);
  if (!hang.empty() && !before_hang.empty()) out.push_back(indent + "the check's last line before the hang: " + before_hang);
  for (const auto& l : hang) out.push_back(indent + l);
  if (!rows.empty()) out.push_back(indent + header_of_first_row);
  for (std::size_t i = 0; i < rows.size() && i < 6; ++i) out.push_back(indent + rows[i]);
  if (rows.size() > 6) out.push_back(indent + "... " + std::to_string(rows.size() - 6) + " more wrong cases");
  if (!differences.empty()) out.push_back(indent + "first differing elements ([index] expected, got):");
  for (std::size_t i = 0; i < differences.size() && i < 3; ++i) out.push_back(indent + "  " + differences[i]);
  for (const auto& l : diagnoses) out.push_back(indent + l);
  if (!failed.empty()) out.push_back(indent + failed);
  return out;
}

}  // namespace ringlab
