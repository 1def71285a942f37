// The holes of an exercise (holes.hpp): recognising the markers, cutting a file at them, filling
// holes into a solution and comparing what is outside them.
#include "ringlab/check/holes.hpp"

#include <algorithm>
#include <map>

namespace ringlab::holes {

namespace {

const std::string kBegin = "// ==== BEGIN EXERCISE: ";
const std::string kBeginTail = " ====";
const std::string kEnd = "// ==== END EXERCISE ====";

// The line without the spaces and tabs around it (a '\r' is not one: it stays and the line is
// then not a marker, as for the awk that the script used before).
std::string strip(const std::string& line) {
  const auto b = line.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return line.substr(b, line.find_last_not_of(" \t") - b + 1);
}

std::string at(int line) { return "line " + std::to_string(line) + ": "; }

// The lines outside the holes, with their numbers; a hole's markers are outside.
struct Numbered {
  int number;
  const std::string* text;
};
std::vector<Numbered> outside(const File& f) {
  std::vector<Numbered> out;
  auto hole = f.holes.begin();
  for (int n = 1; n <= static_cast<int>(f.lines.size()); ++n) {
    while (hole != f.holes.end() && hole->end < n) ++hole;
    const bool inside = hole != f.holes.end() && hole->begin < n && n < hole->end;
    if (!inside) out.push_back({n, &f.lines[n - 1]});
  }
  return out;
}

// "12" or "12,14": lines [first, last] in diff's notation.
std::string range(int first, int last) {
  return first == last ? std::to_string(first) : std::to_string(first) + "," + std::to_string(last);
}

}  // namespace

bool is_begin(const std::string& line, std::string* name) {
  const std::string s = strip(line);
  if (s.size() < kBegin.size() + kBeginTail.size() || !s.starts_with(kBegin) || !s.ends_with(kBeginTail))
    return false;
  if (name) *name = s.substr(kBegin.size(), s.size() - kBegin.size() - kBeginTail.size());
  return true;
}

bool is_end(const std::string& line) { return strip(line) == kEnd; }

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    auto nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

File split(const std::string& text) {
  File f;
  f.lines = lines_of(text);
  Hole open;  // the hole being read; open.begin == 0: none
  for (int n = 1; n <= static_cast<int>(f.lines.size()); ++n) {
    const std::string& line = f.lines[n - 1];
    std::string name;
    if (is_begin(line, &name)) {
      if (open.begin) {
        f.error = at(n) + "BEGIN inside the hole opened at line " + std::to_string(open.begin);
        return f;
      }
      open = Hole{name, n, 0, {}};
    } else if (is_end(line)) {
      if (!open.begin) {
        f.error = at(n) + "END without a BEGIN before it";
        return f;
      }
      open.end = n;
      f.holes.push_back(open);
      open = Hole{};
    } else if (open.begin) {
      open.body.push_back(line);
    }
  }
  if (open.begin) f.error = at(open.begin) + "the hole opened here is never closed";
  return f;
}

namespace {

// fill and fill_one: every hole `holes` fills, or (only != nullptr) just the one named *only.
std::string fill_holes(const std::string& solution, const std::string& holes, const std::string* only,
                       std::string& error) {
  error.clear();
  const File sol = split(solution), wanted = split(holes);
  if (!sol.error.empty()) error = "the solution, " + sol.error;
  else if (!wanted.error.empty()) error = "the holes, " + wanted.error;
  if (!error.empty()) return "";

  std::map<std::string, const Hole*> by_name;
  for (const Hole& h : wanted.holes) {
    auto [it, fresh] = by_name.emplace(h.name, &h);
    if (!fresh) {
      error = "the holes, line " + std::to_string(h.begin) + ": hole \"" + h.name +
              "\" again (the first is at line " + std::to_string(it->second->begin) + ")";
      return "";
    }
  }
  for (const Hole& h : wanted.holes)
    if (std::none_of(sol.holes.begin(), sol.holes.end(), [&](const Hole& s) { return s.name == h.name; })) {
      error = "no hole \"" + h.name + "\" in the solution";
      return "";
    }

  // The solution line by line; at a hole that `holes` fills, its body instead of the solution's.
  std::string out;
  auto hole = sol.holes.begin();
  for (int n = 1; n <= static_cast<int>(sol.lines.size()); ++n) {
    out += sol.lines[n - 1] + "\n";
    if (hole == sol.holes.end() || hole->begin != n) continue;
    const auto it = by_name.find(hole->name);
    if (it != by_name.end() && (!only || *only == hole->name)) {
      for (const auto& line : it->second->body) out += line + "\n";
      n = hole->end - 1;  // the loop goes on with the END marker
    }
    ++hole;
  }
  return out;
}

// The line without the spaces and tabs at its end.
std::string rstrip(const std::string& line) { return line.substr(0, line.find_last_not_of(" \t") + 1); }

}  // namespace

std::string fill(const std::string& solution, const std::string& holes, std::string& error) {
  return fill_holes(solution, holes, nullptr, error);
}

std::string fill_one(const std::string& solution, const std::string& holes, const std::string& name,
                     std::string& error) {
  return fill_holes(solution, holes, &name, error);
}

Written written(const Hole& learner, const Hole& solution) {
  const auto& a = learner.body;
  const auto& b = solution.body;
  if (a.size() == b.size() &&
      std::equal(a.begin(), a.end(), b.begin(), [](const auto& x, const auto& y) { return rstrip(x) == rstrip(y); }))
    return Written::same;
  // Still the TODO: a TODO(exercise) line, and no code but the TODO's own placeholder lines.
  auto todo_line = [](const std::string& l) { return l.find("TODO(exercise)") != std::string::npos; };
  auto code = [](const std::string& l) {
    const auto b = l.find_first_not_of(" \t");
    return b != std::string::npos && l.compare(b, 2, "//") != 0;
  };
  const bool todo = std::any_of(a.begin(), a.end(), todo_line) &&
                    std::none_of(a.begin(), a.end(), [&](const std::string& l) { return code(l) && !todo_line(l); });
  return todo ? Written::todo : Written::own;
}

std::vector<std::string> diff_outside(const File& solution, const File& exercise) {
  const auto a = outside(solution), b = outside(exercise);
  const std::size_t n = a.size(), m = b.size();
  // lcs[i][j]: the longest common subsequence of a[i..] and b[j..]. Files are a few hundred lines.
  std::vector<std::vector<int>> lcs(n + 1, std::vector<int>(m + 1, 0));
  for (std::size_t i = n; i-- > 0;)
    for (std::size_t j = m; j-- > 0;)
      lcs[i][j] = *a[i].text == *b[j].text ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);

  // Walk both, keeping the common lines; each run of lines that are not common is one hunk.
  // A line number "after" which lines are added or deleted is that of the line before (0: none).
  std::vector<std::string> out;
  auto number = [](const std::vector<Numbered>& v, std::size_t k) { return k == 0 ? 0 : v[k - 1].number; };
  std::size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && *a[i].text == *b[j].text) {
      ++i, ++j;
      continue;
    }
    const std::size_t i0 = i, j0 = j;
    while ((i < n || j < m) && !(i < n && j < m && *a[i].text == *b[j].text)) {
      if (j == m || (i < n && lcs[i + 1][j] >= lcs[i][j + 1])) ++i;
      else ++j;
    }
    const std::string left = i > i0 ? range(a[i0].number, a[i - 1].number) : std::to_string(number(a, i0));
    const std::string right = j > j0 ? range(b[j0].number, b[j - 1].number) : std::to_string(number(b, j0));
    out.push_back(left + (i == i0 ? "a" : j == j0 ? "d" : "c") + right);
    for (std::size_t k = i0; k < i; ++k) out.push_back("< " + *a[k].text);
    if (i > i0 && j > j0) out.push_back("---");
    for (std::size_t k = j0; k < j; ++k) out.push_back("> " + *b[k].text);
  }
  return out;
}

std::vector<Hole> holes_without_todo(const File& exercise) {
  std::vector<Hole> out;
  for (const Hole& h : exercise.holes)
    if (std::none_of(h.body.begin(), h.body.end(),
                     [](const std::string& l) { return l.find("TODO(exercise)") != std::string::npos; }))
      out.push_back(h);
  return out;
}

}  // namespace ringlab::holes
