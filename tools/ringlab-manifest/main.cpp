// ringlab-manifest: what scripts/ringlab-exercise asks about the exercises, answered in C++ and
// unit-tested: the manifest (exercises/manifest.txt, one reading of it: ringlab/check/manifest.hpp),
// the holes (fill, compare, resync: ringlab/check/holes.hpp), what a failed run printed
// (explain_run.hpp), what the failed runs have in common (ringlab/check/diagnose_runs.hpp), and
// which hole failed (the variants with one hole of the learner's: ringlab/check/localise.hpp).
// The script keeps the orchestration: build, run under a time limit, exit codes, hint state.
// Built into BUILD/bin from the few MPI-free core files it needs (CMakeLists.txt says why).
// Every question is a subcommand (main() lists them, as `--help` does). A manifest with a
// problem: every problem on stderr as "FILE:LINE: what", exit 2.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>

#include "explain_run.hpp"
#include "ringlab/base/output_path.hpp"
#include "ringlab/check/diagnose_runs.hpp"
#include "ringlab/check/holes.hpp"
#include "ringlab/check/localise.hpp"
#include "ringlab/check/manifest.hpp"

namespace {

namespace fs = std::filesystem;
using ringlab::manifest::Exercise;
using ringlab::manifest::Manifest;

int fail(const std::string& what) {
  std::fprintf(stderr, "ringlab-manifest: error: %s\n", what.c_str());
  return 2;
}

// 1 to `most` digits, nothing else.
bool digits(const std::string& s, std::size_t most) {
  return !s.empty() && s.size() <= most && s.find_first_not_of("0123456789") == std::string::npos;
}

// "5" or "05" -> the exercise numbered 05, which must exist.
const Exercise* exercise(const Manifest& m, const std::string& arg, std::string& error) {
  if (!digits(arg, 2)) {
    error = "exercise '" + arg + "': give its number, e.g. 05";
    return nullptr;
  }
  const std::string nn = (arg.size() == 1 ? "0" : "") + arg;
  const Exercise* e = m.find(nn);
  if (!e) {
    error = "there is no exercise " + nn + "; the exercises are:";
    for (const auto& x : m.exercises) error += " " + x.nn;
  }
  return e;
}

// One hint as `./ringlab hint` shows it: "LABEL first line", the next lines under the first.
void print_hint(const std::string& label, const std::string& hint) {
  std::istringstream lines(hint);
  std::string prefix = label;
  for (std::string line; std::getline(lines, line); prefix.assign(label.size(), ' '))
    std::printf("%s %s\n", prefix.c_str(), line.c_str());
}

bool read(const fs::path& path, std::string& text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  text.assign(std::istreambuf_iterator<char>(in), {});
  return true;
}

// A folder's files (not its folders, not its hidden files), by name.
std::vector<std::string> files_in(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.is_regular_file() && entry.path().filename().string()[0] != '.')
      names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// fill: OUT is SOLUTION with the holes HOLES fills (how a typical mistake becomes a header).
// OUT is rewritten only when it changes: an unchanged header must not rebuild the mistake.
int fill(const std::string& solution, const std::string& holes, const std::string& out) {
  std::string sol_text, holes_text, error, old;
  if (!read(solution, sol_text)) return fail("fill: cannot read " + solution);
  if (!read(holes, holes_text)) return fail("fill: cannot read " + holes);
  const std::string filled = ringlab::holes::fill(sol_text, holes_text, error);
  if (!error.empty()) {
    std::fprintf(stderr, "ringlab-manifest fill: %s (solution %s, holes %s)\n", error.c_str(),
                 solution.c_str(), holes.c_str());
    return 1;
  }
  if (read(out, old) && old == filled) return 0;
  std::error_code ec;
  if (fs::path(out).has_parent_path()) fs::create_directories(fs::path(out).parent_path(), ec);
  return ringlab::write_whole(out, filled) ? 0 : fail("fill: cannot write " + out);
}

// same NN: exercises/TOPIC and solutions/TOPIC hold the same files, identical outside the
// holes, and every hole of the exercise has a TODO(exercise) line. Exit 1 with what differs.
int same(const Exercise& e, const fs::path& root) {
  const std::string ex = "exercises/" + e.topic, sol = "solutions/" + e.topic;
  if (!fs::is_directory(root / ex) || !fs::is_directory(root / sol))
    return fail("exercise " + e.nn + ": need both " + ex + " and " + sol);
  bool bad = false, broken = false;  // broken: some file's markers do not pair up
  auto problem = [&](const std::string& line) {
    std::printf("%s\n", line.c_str());
    bad = true;
  };
  std::size_t holes = 0;
  for (const auto& name : files_in(root / sol))
    if (!fs::is_regular_file(root / ex / name))
      problem(sol + "/" + name + " has no copy in " + ex + "/ (copy it: every file of the topic is there)");
  for (const auto& name : files_in(root / ex)) {
    const std::string x_name = ex + "/" + name, s_name = sol + "/" + name;
    std::string x_text, s_text;
    if (!fs::is_regular_file(root / s_name) || !read(root / s_name, s_text) || !read(root / x_name, x_text)) {
      problem(x_name + " has no " + s_name);
      continue;
    }
    const auto x = ringlab::holes::split(x_text), s = ringlab::holes::split(s_text);
    holes += x.holes.size();
    if (!s.error.empty()) problem(s_name + ", " + s.error);
    if (!x.error.empty()) problem(x_name + ", " + x.error);
    if (!s.error.empty() || !x.error.empty()) {  // holes that cannot be told apart: no comparison
      broken = true;
      continue;
    }
    const auto diff = ringlab::holes::diff_outside(s, x);
    if (!diff.empty())
      problem(x_name + " and " + s_name + " differ outside the holes (< solution, > exercise):");
    for (std::size_t i = 0; i < diff.size() && i < 30; ++i) std::printf("%s\n", diff[i].c_str());
    if (!ringlab::holes::holes_without_todo(x).empty())
      problem(x_name + ": a hole without a TODO(exercise) line");
  }
  if (holes == 0 && !broken) problem(ex + " has no holes");
  if (!bad)
    std::printf("exercise %s: %zu hole(s); identical to the solution everywhere else.\n", e.nn.c_str(),
                holes);
  return bad ? 1 : 0;
}

// resync NN: rewrites exercises/TOPIC from solutions/TOPIC (after the solution changed outside
// its holes), keeping the exercise's holes; a file without holes is copied.
int resync(const Exercise& e, const fs::path& root) {
  const std::string ex = "exercises/" + e.topic, sol = "solutions/" + e.topic;
  if (!fs::is_directory(root / sol)) return fail("exercise " + e.nn + ": " + sol + " is not there");
  for (const auto& name : files_in(root / sol)) {
    std::string s_text, x_text, error;
    if (!read(root / sol / name, s_text)) return fail("cannot read " + sol + "/" + name);
    std::string text = s_text;  // a file without holes is the solution's
    if (read(root / ex / name, x_text)) {
      const auto x = ringlab::holes::split(x_text);
      if (!x.holes.empty() || !x.error.empty()) {  // a broken hole is not overwritten: fill refuses it
        text = ringlab::holes::fill(s_text, x_text, error);
        if (!error.empty())
          return fail(ex + "/" + name + ": its holes do not match the solution's: " + error);
      }
    }
    if (!ringlab::write_whole(root / ex / name, text)) return fail("cannot write " + ex + "/" + name);
    std::printf("%s/%s\n", ex.c_str(), name.c_str());
  }
  return 0;
}

// variants NN HOLES OUT: for each hole K (1, 2, ... in the order of the solution's files and
// their holes), OUT/K/ holds the topic's files with hole K from the learner's copy in HOLES and
// every other hole the solution's; prints "K<TAB>NAME<TAB>same|todo|own" per hole. Nothing is
// written for an exercise with one hole: there is nothing to localise. A file is rewritten only
// when it changes, so checking the same code again rebuilds nothing.
int variants(const Exercise& e, const fs::path& root, const fs::path& learner, const fs::path& out) {
  const fs::path sol = root / "solutions" / e.topic;
  if (!fs::is_directory(sol)) return fail("exercise " + e.nn + ": solutions/" + e.topic + " is not there");
  struct Source {
    std::string name, solution, learner;
  };
  std::vector<Source> files;
  struct HoleAt {
    std::size_t file;  // index into files
    std::string hole;
    ringlab::holes::Written written;
  };
  std::vector<HoleAt> holes;
  for (const auto& name : files_in(sol)) {
    Source f{name, "", ""};
    if (!read(sol / name, f.solution)) return fail("cannot read " + (sol / name).string());
    const auto s = ringlab::holes::split(f.solution);
    if (!s.holes.empty() && !read(learner / name, f.learner))
      return fail("variants: " + (learner / name).string() + " is not there");
    const auto l = ringlab::holes::split(f.learner);
    if (!l.error.empty()) return fail("variants: " + (learner / name).string() + ", " + l.error);
    for (const auto& h : s.holes) {
      const auto mine = std::find_if(l.holes.begin(), l.holes.end(), [&](const auto& x) { return x.name == h.name; });
      if (mine == l.holes.end())
        return fail("variants: " + (learner / name).string() + " has no hole \"" + h.name + "\"");
      holes.push_back({files.size(), h.name, ringlab::holes::written(*mine, h)});
    }
    files.push_back(f);
  }
  if (holes.size() < 2) return 0;
  for (std::size_t k = 0; k < holes.size(); ++k) {
    const fs::path dir = out / std::to_string(k + 1);
    std::error_code ec;
    fs::create_directories(dir, ec);
    for (std::size_t i = 0; i < files.size(); ++i) {
      std::string text = files[i].solution, error, old;
      if (i == holes[k].file) text = ringlab::holes::fill_one(text, files[i].learner, holes[k].hole, error);
      if (!error.empty()) return fail("variants: " + files[i].name + ": " + error);
      if (read(dir / files[i].name, old) && old == text) continue;
      if (!ringlab::write_whole(dir / files[i].name, text)) return fail("cannot write " + (dir / files[i].name).string());
    }
    static const char* const kWritten[] = {"same", "todo", "own"};
    std::printf("%zu\t%s\t%s\n", k + 1, holes[k].hole.c_str(), kWritten[static_cast<int>(holes[k].written)]);
  }
  return 0;
}

// --variants FILE: how each hole's variant did (localise.hpp); no FILE, none.
bool read_variants(const std::string& path, std::vector<ringlab::localise::Variant>& out, std::string& error) {
  if (path.empty()) return true;
  std::string text;
  if (!read(path, text)) {
    error = "--variants: cannot read " + path;
    return false;
  }
  out = ringlab::localise::parse(text, error);
  if (!error.empty()) error = "--variants " + path + ": " + error;
  return error.empty();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "ringlab-manifest: answers scripts/ringlab-exercise's questions about the exercises: "
      "exercises/manifest.txt, the holes, and what failed check runs printed."};
  std::string manifest_path, root, nn, key, nps, hint_which, solution, holes_file, out, variants_file, shown;
  std::vector<std::string> failed_holes;
  int runs_max = 0;
  bool brief = false, only_failing = false;
  app.add_option("--manifest", manifest_path,
                 "The manifest (exercises/manifest.txt); needed by every "
                 "question but fill, explain and localise");
  app.add_option("--root", root, "The repository (default: the manifest's folder's parent)");
  app.require_subcommand(1);
  auto* list = app.add_subcommand("list", "NN<TAB>topic<TAB>title, one line per exercise, in order");
  auto* number =
      app.add_subcommand("number", "NN as two digits (5 -> 05); exit 2 if there is no such exercise");
  auto* get = app.add_subcommand("get", "Every value of KEY in exercise NN, one per line, as written");
  auto* plan = app.add_subcommand("plan", "The runs of NN's check, in order: NP<TAB>ARGUMENTS per line");
  auto* hints =
      app.add_subcommand("hint", "Exercise NN's hint K (of its N), `all` for every hint, `count` for N");
  auto* validate =
      app.add_subcommand("validate", "The manifest is well-formed and every topic's folders exist");
  auto* diagnose = app.add_subcommand(
      "diagnose",
      "What the failures of NN's check runs have in common; reads NP<TAB>EXIT<TAB>RESULTS lines on stdin");
  auto* fills = app.add_subcommand(
      "fill",
      "Writes OUT: SOLUTION with the holes HOLES fills replaced by HOLES' versions; exit 1 if "
      "HOLES has a hole the solution lacks");
  auto* sames = app.add_subcommand(
      "same", "Exercise NN and its solution are the same files, identical outside the holes; exit 1 if not");
  auto* resyncs = app.add_subcommand(
      "resync", "Rewrites exercises/NN_topic from solutions/NN_topic, keeping the exercise's holes");
  auto* explain = app.add_subcommand(
      "explain", "The lines of a failed check run's output (stdin) that say what went wrong");
  auto* variant = app.add_subcommand(
      "variants",
      "Writes OUT/K/: NN's files with hole K from the learner's files in HOLES and every other hole the "
      "solution's; prints K<TAB>HOLE<TAB>same|todo|own per hole (nothing for one hole)");
  auto* localise = app.add_subcommand(
      "localise", "The line that says which holes fail on their own, from --variants FILE (how each did)");
  for (auto* question : {number, get, plan, hints, diagnose, sames, resyncs, variant})
    question->add_option("NN", nn, "Exercise number")->required();
  get->add_option("KEY", key, "topic, title, np, check, device, ranks-per-host, diagnose or hint")->required();
  plan->add_option("--np", nps, "Only these numbers of ranks (\"2 3\"); few: the first two above 1");
  plan->add_option("--runs", runs_max, "Only the first N check lines")->check(CLI::PositiveNumber);
  hints->add_option("WHICH", hint_which, "K (1 = gentlest), all, count, or next")->required();
  hints->add_option("--shown", shown, "next: the hints shown already (\"1 2\")");
  hints->add_option("--failed", failed_holes, "next: a hole the last check found failing (may repeat)");
  variant->add_option("HOLES", holes_file, "The folder of the learner's files (exercises/NN_topic)")->required();
  variant->add_option("OUT", out, "The folder to write the variants in")->required();
  localise->add_option("--variants", variants_file, "NAME<TAB>WRITTEN<TAB>OUTCOME per hole")->required();
  localise->add_flag("--failing", only_failing, "The holes to speak of instead, one per line");
  for (auto* question : {explain, diagnose})
    question->add_option("--variants", variants_file,
                         "How each hole's variant did: leave out what blames a hole that passes on its own");
  fills->add_option("SOLUTION", solution, "The solution file")->required();
  fills->add_option("HOLES", holes_file, "A file of holes (a typical mistake, or an exercise)")->required();
  fills->add_option("OUT", out, "The file to write (only if it changes)")->required();
  explain->add_flag("--brief", brief, "One line only (for every failed run after the first)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return fail(e.what());
  }

  // The questions that need no manifest.
  std::vector<ringlab::localise::Variant> localised;
  std::string error;
  if (!read_variants(variants_file, localised, error)) return fail(error);
  if (fills->parsed()) return fill(solution, holes_file, out);
  if (explain->parsed()) {
    const auto lines = ringlab::localise::speak_of_failing(ringlab::explain_run(std::cin, brief), localised);
    for (const auto& line : lines) std::printf("%s\n", line.c_str());
    return 0;
  }
  if (localise->parsed()) {
    if (only_failing)
      for (const auto& hole : ringlab::localise::failing(localised)) std::printf("%s\n", hole.c_str());
    else if (const auto line = ringlab::localise::verdict(localised); !line.empty())
      std::printf("%s\n", line.c_str());
    return 0;
  }

  if (manifest_path.empty()) return fail("--manifest FILE is needed (exercises/manifest.txt)");
  const Manifest m = ringlab::manifest::load(manifest_path);
  if (root.empty()) root = fs::absolute(manifest_path).parent_path().parent_path().string();
  auto errors = m.errors;
  if (validate->parsed()) {
    for (auto& e : ringlab::manifest::missing_folders(m, manifest_path, root)) errors.push_back(e);
    for (auto& e : ringlab::manifest::unknown_hint_holes(m, manifest_path, root)) errors.push_back(e);
  }
  if (!errors.empty()) {  // a manifest with a problem is never half-used
    for (const auto& e : errors) std::fprintf(stderr, "%s\n", e.c_str());
    return 2;
  }
  if (validate->parsed()) {
    std::printf("%s: %zu exercises, well-formed.\n", manifest_path.c_str(), m.exercises.size());
    return 0;
  }
  if (list->parsed()) {
    for (const auto& e : m.exercises)
      std::printf("%s\t%s\t%s\n", e.nn.c_str(), e.topic.c_str(), e.title.c_str());
    return 0;
  }

  const Exercise* e = exercise(m, nn, error);
  if (!e) return fail(error);
  if (sames->parsed()) return same(*e, root);
  if (variant->parsed()) return variants(*e, root, holes_file, out);
  if (resyncs->parsed()) return resync(*e, root);
  if (number->parsed()) {
    std::printf("%s\n", e->nn.c_str());
  } else if (get->parsed()) {
    for (const auto& [k, v] : e->fields)
      if (k == key) std::printf("%s\n", v.c_str());
  } else if (plan->parsed()) {
    std::vector<int> ranks = e->np;
    if (nps == "few") {  // the first two numbers of ranks above 1 (the mistakes' tests)
      std::vector<int> few;
      for (int n : e->np)
        if (n > 1 && few.size() < 2) few.push_back(n);
      if (!few.empty()) ranks = few;
    } else if (!nps.empty()) {
      ranks.clear();
      std::istringstream in(nps);
      for (std::string w; in >> w;) {
        if (!digits(w, 4) || std::stoi(w) < 1) return fail("--np: \"" + w + "\" is not a number of ranks");
        ranks.push_back(std::stoi(w));
      }
    }
    const std::size_t checks =
        runs_max > 0 ? std::min<std::size_t>(runs_max, e->checks.size()) : e->checks.size();
    for (int n : ranks)
      for (std::size_t i = 0; i < checks; ++i) std::printf("%d\t%s\n", n, e->checks[i].c_str());
  } else if (hints->parsed()) {
    const int total = static_cast<int>(e->hints.size());
    if (hint_which == "count") {
      std::printf("%d\n", total);
    } else if (hint_which == "next") {  // "K<TAB>LEFT": the hint to show, and how many more after it
      std::vector<int> seen;
      std::istringstream in(shown);
      for (std::string w; in >> w;)
        if (digits(w, 3) && std::stoi(w) >= 1) seen.push_back(std::stoi(w) - 1);
      const int k = ringlab::manifest::next_hint(*e, seen, failed_holes);
      if (k >= 0) seen.push_back(k);
      std::printf("%d\t%d\n", k + 1, ringlab::manifest::hints_left(*e, seen, failed_holes));
    } else if (hint_which == "all") {
      for (int k = 0; k < total; ++k) print_hint("hint " + std::to_string(k + 1) + ":", e->hints[k]);
    } else {
      const int k = digits(hint_which, 3) ? std::stoi(hint_which) : 0;
      if (k < 1 || k > total)
        return fail("hint " + hint_which + ": exercise " + e->nn + " has hints 1 to " +
                    std::to_string(total));
      print_hint("hint " + std::to_string(k) + " of " + std::to_string(total) + ":", e->hints[k - 1]);
    }
  } else if (diagnose->parsed()) {
    std::vector<ringlab::CheckRun> runs;
    std::string line;
    for (int at = 1; std::getline(std::cin, line); ++at) {
      std::istringstream f(line);
      int np = 0, rc = 0;
      std::string path;
      if (!(f >> np >> rc) || !std::getline(f >> std::ws, path))
        return fail("diagnose: stdin line " + std::to_string(at) +
                    ": want NP<TAB>EXIT<TAB>RESULTS-FILE, got \"" + line + "\"");
      runs.push_back(ringlab::read_check_run(np, rc, path));
    }
    for (const auto& sentence :
         ringlab::localise::speak_of_failing(ringlab::diagnose_runs(e->diagnose, runs), localised))
      std::printf("%s\n", sentence.c_str());
  }
  return 0;
}
