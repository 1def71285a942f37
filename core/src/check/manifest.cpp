// Reading exercises/manifest.txt (manifest.hpp): one pass over the lines, one error line per
// problem, each naming the file and line.
#include "ringlab/check/manifest.hpp"

#include "ringlab/check/holes.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

namespace ringlab::manifest {

namespace {

// The keys a block may hold, and the symptoms a `diagnose` line may name (diagnose_runs.hpp).
const std::vector<std::string> kKeys{"topic", "title", "np", "check", "device", "ranks-per-host", "diagnose", "hint"};
const std::vector<std::string> kDevices{"cpu", "sim", "cuda", "auto"};
const std::vector<std::string> kSymptoms{"remainder", "np2",         "one-chunk",         "times-np",
                                           "root0",     "factor-of-n", "factor-of-workers", "kept-own"};

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

std::vector<std::string> words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

bool is_known(const std::vector<std::string>& list, const std::string& w) {
  return std::find(list.begin(), list.end(), w) != list.end();
}

bool has_key(const Exercise& e, const std::string& key) {
  return std::any_of(e.fields.begin(), e.fields.end(), [&](const auto& f) { return f.first == key; });
}

std::string joined(const std::vector<std::string>& list, const std::string& between = " ") {
  std::string out;
  for (const auto& w : list) out += (out.empty() ? "" : between) + w;
  return out;
}

bool all_digits(const std::string& s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
}

// "2", "12": a number of ranks, 1 or more; anything else is not.
bool parse_ranks(const std::string& w, int& n) {
  if (w.size() > 6 || !all_digits(w)) return false;
  n = std::stoi(w);
  return n >= 1;
}

}  // namespace

const Exercise* Manifest::find(const std::string& nn) const {
  for (const auto& e : exercises)
    if (e.nn == nn) return &e;
  return nullptr;
}

Manifest parse(std::istream& in, const std::string& file) {
  Manifest m;
  auto fail = [&](int line, const std::string& what) {
    m.errors.push_back(file + ":" + std::to_string(line) + ": " + what);
  };
  // A block is complete when the next one starts (or the file ends): then its required keys
  // must all have been there.
  auto close_block = [&]() {
    if (m.exercises.empty()) return;
    const Exercise& e = m.exercises.back();
    for (const char* key : {"topic", "title", "np", "check"})
      if (!has_key(e, key)) fail(e.line, "exercise [" + e.nn + "] has no " + key + " line");
  };

  std::string text;
  int line = 0;
  // After a malformed [NN] its lines belong to nothing: the header's error says what is wrong.
  bool header_seen = false, in_block = false;
  while (std::getline(in, text)) {
    ++line;
    const std::string t = trim(text);
    if (t.empty() || t[0] == '#') continue;
    if (t[0] == '[') {
      if (in_block) close_block();
      header_seen = true;
      in_block = t.size() == 4 && t[3] == ']' && all_digits(t.substr(1, 2));
      if (!in_block) {
        fail(line, "a block starts with [NN], two digits: got " + t);
        continue;
      }
      const std::string nn = t.substr(1, 2);
      if (m.find(nn)) fail(line, "exercise [" + nn + "] twice");
      m.exercises.emplace_back().nn = nn;
      m.exercises.back().line = line;
      continue;
    }
    const auto eq = text.find('=');
    if (eq == std::string::npos) {
      fail(line, "not a key = value line: " + t);
      continue;
    }
    if (!in_block) {
      if (!header_seen) fail(line, "a key before the first [NN]");
      continue;
    }
    Exercise& e = m.exercises.back();
    std::string key = trim(text.substr(0, eq));
    // hint[plan, ready]: a hint about those holes. The tag is read off, and the key is "hint".
    std::vector<std::string> tags;
    const bool tagged = key.starts_with("hint[") && key.ends_with("]");
    if (tagged) {
      const std::string list = key.substr(5, key.size() - 6);
      for (std::size_t at = 0, comma = 0; comma != std::string::npos; at = comma + 1) {
        comma = list.find(',', at);
        tags.push_back(trim(list.substr(at, comma == std::string::npos ? std::string::npos : comma - at)));
      }
      key = "hint";
      if (std::any_of(tags.begin(), tags.end(), [](const std::string& t) { return t.empty(); })) {
        fail(line, "hint[...]: name the holes, separated by commas: got " + t);
        continue;
      }
    }
    std::string raw = text.substr(eq + 1);  // one space after "=" is the separator, the rest is kept
    if (!raw.empty() && raw[0] == ' ') raw.erase(0, 1);
    raw.erase(raw.find_last_not_of(" \t\r") + 1);
    const std::string value = trim(raw);
    if (!is_known(kKeys, key)) {
      fail(line, "unknown key \"" + key + "\" (known: " + joined(kKeys) + ")");
      continue;
    }
    if (!value.empty() && (value[0] == '"' || value[0] == '\'' || value.back() == '\\'))
      fail(line, "no quotes and no continuation with \\: " + t);
    const bool once = key == "topic" || key == "title" || key == "np" || key == "device" || key == "ranks-per-host";
    if (once && has_key(e, key)) fail(line, key + " given twice in [" + e.nn + "]");
    e.fields.emplace_back(key, raw);

    if (key == "topic") e.topic = value;
    else if (key == "title") e.title = value;
    else if (key == "check") e.checks.push_back(value);
    else if (key == "device" && !is_known(kDevices, value))
      fail(line, "device: \"" + value + "\" is not a --device (known: " + joined(kDevices) + ")");
    else if (int k = 0; key == "ranks-per-host" && !parse_ranks(value, k))
      fail(line, "ranks-per-host: \"" + value + "\" is not a number of ranks (1 or more)");
    else if (key == "np") {
      e.np.clear();
      const auto ranks = words(value);
      if (ranks.empty()) fail(line, "np: no numbers of ranks");
      for (const auto& w : ranks) {
        int n = 0;
        if (!parse_ranks(w, n)) fail(line, "np: \"" + w + "\" is not a number of ranks (1 or more)");
        else if (!e.np.empty() && n <= e.np.back())
          fail(line, "np: give the numbers of ranks smallest first");
        else e.np.push_back(n);
      }
    } else if (key == "diagnose") {
      for (const auto& w : words(value)) {
        if (is_known(kSymptoms, w)) e.diagnose.push_back(w);
        else fail(line, "diagnose: unknown symptom \"" + w + "\" (known: " + joined(kSymptoms) + ")");
      }
    } else if (key == "hint") {
      const bool continues = !raw.empty() && (raw[0] == ' ' || raw[0] == '\t');
      if (continues && tagged) {
        fail(line, "a hint's continued line is a plain `hint =` (it belongs to the hint before): " + t);
      } else if (continues && !e.hints.empty()) {
        e.hints.back() += "\n" + value;
      } else {
        e.hints.push_back(value);
        e.hint_holes.push_back(tags);
        e.hint_lines.push_back(line);
      }
    }
  }
  if (in_block) close_block();
  return m;
}

Manifest load(const std::string& path) {
  std::ifstream in(path);
  if (!in) return {{}, {path + ": cannot be read"}};
  return parse(in, path);
}

std::vector<std::string> missing_folders(const Manifest& m, const std::string& file,
                                         const std::string& root) {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  for (const auto& e : m.exercises) {
    if (e.topic.empty()) continue;  // "has no topic line" already says it
    if (!fs::is_directory(fs::path(root) / "exercises" / e.topic) ||
        !fs::is_directory(fs::path(root) / "solutions" / e.topic))
      out.push_back(file + ":" + std::to_string(e.line) + ": exercise [" + e.nn + "]: exercises/" + e.topic +
                    "/ and solutions/" + e.topic + "/ must both exist");
  }
  return out;
}

std::vector<std::string> hole_names(const Exercise& e, const std::string& root) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(root) / "solutions" / e.topic;
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (entry.is_regular_file()) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  std::vector<std::string> names;
  for (const auto& path : files) {
    std::ifstream in(path, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), {});
    for (const auto& h : holes::split(text).holes) names.push_back(h.name);
  }
  return names;
}

std::vector<std::string> unknown_hint_holes(const Manifest& m, const std::string& file, const std::string& root) {
  std::vector<std::string> out;
  for (const auto& e : m.exercises) {
    if (e.topic.empty()) continue;
    const auto names = hole_names(e, root);
    for (std::size_t k = 0; k < e.hints.size(); ++k)
      for (const auto& tag : e.hint_holes[k])
        if (!is_known(names, tag))
          out.push_back(file + ":" + std::to_string(e.hint_lines[k]) + ": hint[" + tag + "]: exercise [" + e.nn +
                        "] has no hole \"" + tag + "\" (its holes: " + joined(names, ", ") + ")");
  }
  return out;
}

namespace {

// The hints `./ringlab hint` chooses from after a check where the holes `failed` failed: those
// about them and the untagged ones. Every hint when `failed` is empty, or when no hint is tagged
// with a hole of it (then the tags cannot say which to skip).
std::vector<int> hints_about(const Exercise& e, const std::vector<std::string>& failed) {
  auto about_failed = [&](int k) {
    const auto& about = e.hint_holes[k];
    return std::any_of(about.begin(), about.end(), [&](const std::string& h) { return is_known(failed, h); });
  };
  std::vector<int> all(e.hints.size()), out;
  for (int k = 0; k < static_cast<int>(all.size()); ++k) all[k] = k;
  if (std::none_of(all.begin(), all.end(), about_failed)) return all;
  for (int k : all)
    if (e.hint_holes[k].empty() || about_failed(k)) out.push_back(k);
  return out;
}

}  // namespace

int next_hint(const Exercise& e, const std::vector<int>& shown, const std::vector<std::string>& failed) {
  const auto about = hints_about(e, failed);
  for (int k : about)
    if (std::find(shown.begin(), shown.end(), k) == shown.end()) return k;
  return about.empty() ? -1 : about.back();
}

int hints_left(const Exercise& e, const std::vector<int>& shown, const std::vector<std::string>& failed) {
  const auto about = hints_about(e, failed);
  return static_cast<int>(std::count_if(about.begin(), about.end(), [&](int k) {
    return std::find(shown.begin(), shown.end(), k) == shown.end();
  }));
}

}  // namespace ringlab::manifest
