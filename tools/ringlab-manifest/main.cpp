// ringlab-manifest: everything the scripts and CMake ask about exercises/manifest.txt, from one
// reading of it (ringlab/manifest.hpp), plus the cross-run diagnosis of a check
// (ringlab/diagnose_runs.hpp). scripts/ringlab-exercise keeps the orchestration (build, run
// under a time limit, exit codes) and asks this program the rest.
//
// Built at configure time (cmake/RinglabManifest.cmake), so CMake itself can read the manifest
// with it, and the scripts find it in BUILD/bin before anything else is built.
//
//   ringlab-manifest --manifest FILE list            NN<TAB>topic<TAB>title, one per exercise
//   ringlab-manifest --manifest FILE diagnose 05 < runs   runs: NP<TAB>EXIT<TAB>RESULTS-FILE lines
// A manifest with a problem: every problem on stderr as "FILE:LINE: what", exit 2.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>

#include "ringlab/check/diagnose_runs.hpp"
#include "ringlab/check/manifest.hpp"

namespace {

using ringlab::manifest::Exercise;
using ringlab::manifest::Manifest;

int fail(const std::string& what) {
  std::fprintf(stderr, "ringlab-manifest: error: %s\n", what.c_str());
  return 2;
}

std::string numbers(const Manifest& m) {
  std::string out;
  for (const auto& e : m.exercises) out += (out.empty() ? "" : " ") + e.nn;
  return out;
}

// "5" or "05" -> the exercise numbered 05, which must exist.
const Exercise* exercise(const Manifest& m, const std::string& arg, std::string& error) {
  const bool digits =
      !arg.empty() && arg.size() <= 2 && arg.find_first_not_of("0123456789") == std::string::npos;
  if (!digits) {
    error = "exercise '" + arg + "': give its number, e.g. 05";
    return nullptr;
  }
  const std::string nn = (arg.size() == 1 ? "0" : "") + arg;
  const Exercise* e = m.find(nn);
  if (!e) error = "there is no exercise " + nn + "; the exercises are: " + numbers(m);
  return e;
}

// A CMake string that needs no escaping: [==[...]==].
std::string bracket(const std::string& s) { return "[==[" + s + "]==]"; }

// One hint as `./ringlab hint` shows it: "LABEL first line", the next lines under the first.
void print_hint(const std::string& label, const std::string& hint) {
  std::istringstream lines(hint);
  std::string line;
  bool first = true;
  while (std::getline(lines, line)) {
    std::printf("%s %s\n", first ? label.c_str() : std::string(label.size(), ' ').c_str(), line.c_str());
    first = false;
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "ringlab-manifest: reads exercises/manifest.txt for the scripts and CMake, and combines "
      "the results of an exercise's check runs into one diagnosis."};
  std::string manifest_path, root, nn, key, nps, hint_which;
  int runs_max = 0;
  app.add_option("--manifest", manifest_path, "The manifest (exercises/manifest.txt)")->required();
  app.add_option("--root", root, "The repository, for `validate` (default: the manifest's folder's parent)");
  app.require_subcommand(1);
  auto* list = app.add_subcommand("list", "NN<TAB>topic<TAB>title, one line per exercise, in order");
  auto* number =
      app.add_subcommand("number", "NN as two digits (5 -> 05); exit 2 if there is no such exercise");
  number->add_option("NN", nn, "Exercise number")->required();
  auto* get = app.add_subcommand("get", "Every value of KEY in exercise NN, one per line, as written");
  get->add_option("NN", nn, "Exercise number")->required();
  get->add_option("KEY", key, "topic, title, np, check, diagnose or hint")->required();
  auto* plan = app.add_subcommand("plan", "The runs of NN's check, in order: NP<TAB>ARGUMENTS per line");
  plan->add_option("NN", nn, "Exercise number")->required();
  plan->add_option("--np", nps, "Only these numbers of ranks (\"2 3\"); few: the first two above 1");
  plan->add_option("--runs", runs_max, "Only the first N check lines")->check(CLI::PositiveNumber);
  auto* hints =
      app.add_subcommand("hint", "Exercise NN's hint K (of its N), `all` for every hint, `count` for N");
  hints->add_option("NN", nn, "Exercise number")->required();
  hints->add_option("WHICH", hint_which, "K (1 = gentlest), all, or count")->required();
  auto* validate =
      app.add_subcommand("validate", "The manifest is well-formed and every topic's folders exist");
  auto* cmake = app.add_subcommand(
      "cmake", "The manifest as CMake variables (RINGLAB_MANIFEST_EXERCISES, ..._NN_TOPIC)");
  auto* diagnose = app.add_subcommand(
      "diagnose",
      "What the failures of NN's check runs have in common; reads NP<TAB>EXIT<TAB>RESULTS lines on stdin");
  diagnose->add_option("NN", nn, "Exercise number")->required();
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return fail(e.what());
  }

  const Manifest m = ringlab::manifest::load(manifest_path);
  auto errors = m.errors;
  if (validate->parsed()) {
    if (root.empty()) root = std::filesystem::absolute(manifest_path).parent_path().parent_path().string();
    for (auto& e : ringlab::manifest::missing_folders(m, manifest_path, root)) errors.push_back(e);
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
  if (cmake->parsed()) {
    std::printf("# Generated by ringlab-manifest from %s: do not edit.\n", manifest_path.c_str());
    std::printf("set(RINGLAB_MANIFEST_EXERCISES %s)\n", numbers(m).c_str());
    for (const auto& e : m.exercises) {
      std::printf("set(RINGLAB_MANIFEST_%s_TOPIC %s)\n", e.nn.c_str(), bracket(e.topic).c_str());
      std::printf("set(RINGLAB_MANIFEST_%s_TITLE %s)\n", e.nn.c_str(), bracket(e.title).c_str());
    }
    return 0;
  }

  std::string error;
  const Exercise* e = exercise(m, nn, error);
  if (!e) return fail(error);
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
        if (w.find_first_not_of("0123456789") != std::string::npos || w.size() > 4 || std::stoi(w) < 1)
          return fail("--np: \"" + w + "\" is not a number of ranks");
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
    } else if (hint_which == "all") {
      for (int k = 0; k < total; ++k) print_hint("hint " + std::to_string(k + 1) + ":", e->hints[k]);
    } else {
      const bool digits = !hint_which.empty() && hint_which.size() <= 3 &&
                          hint_which.find_first_not_of("0123456789") == std::string::npos;
      const int k = digits ? std::stoi(hint_which) : 0;
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
    for (const auto& sentence : ringlab::diagnose_runs(e->diagnose, runs))
      std::printf("%s\n", sentence.c_str());
  }
  return 0;
}
