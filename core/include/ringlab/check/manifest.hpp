// The exercises' manifest (exercises/manifest.txt), read in one place. The program
// tools/ringlab-manifest answers every question the scripts ask about it (which exercises, their
// ranks, check arguments, hints), so there is one reading of the format, and it is tested
// (tests/core/test_manifest.cpp). CMake reads only the exercises' numbers and folders itself
// (cmake/RinglabManifest.cmake), and every build checks the whole file with the program. The
// format, as docs/exercises.md describes it:
//
//   # a comment line
//   [05]                       an exercise: two digits, the lesson's number
//   topic = 05_ring_allreduce  its folder under exercises/ and solutions/
//   title = Ring allreduce: ...
//   np = 1 2 3 4 8             the numbers of ranks its check runs on, smallest first
//   check = --check --type int32   the lesson's arguments for one check run (may repeat)
//   diagnose = remainder np2   cross-run symptoms to look for (diagnose_runs.hpp; optional)
//   hint = one hint            may repeat; a value that starts with spaces continues the hint before
//   hint[plan] = a hint        a hint about the hole named plan (hint[ready, finish]: about two);
//                              an untagged hint is about the whole exercise. `./ringlab hint` after
//                              a failed check shows the hints about the holes that failed.
//
// No MPI here: the program compiles this file itself, and builds in seconds on a fresh checkout.
#pragma once
#include <istream>
#include <string>
#include <utility>
#include <vector>

namespace ringlab::manifest {

struct Exercise {
  std::string nn;  // "05"
  int line = 0;    // where its [NN] stands
  std::string topic, title;
  std::vector<int> np;
  std::vector<std::string> checks;    // one run's arguments each
  std::vector<std::string> diagnose;  // symptom names
  std::vector<std::string> hints;     // one hint each; a continued hint's lines joined by '\n'
  // hint_holes[k]: the holes hints[k] is about (`hint[plan] = `); empty: the whole exercise.
  // hint_lines[k]: the line hints[k] starts on.
  std::vector<std::vector<std::string>> hint_holes;
  std::vector<int> hint_lines;
  // Every `key = value` line in order, the value as written minus the one space after "=" (so a
  // continued hint keeps its leading spaces): what `ringlab-manifest get` prints.
  std::vector<std::pair<std::string, std::string>> fields;
};

struct Manifest {
  std::vector<Exercise> exercises;
  // Every problem found, one line each, "FILE:LINE: what is wrong"; empty when well-formed.
  std::vector<std::string> errors;
  // The exercise numbered nn ("05"), or nullptr.
  const Exercise* find(const std::string& nn) const;
};

// Reads a manifest; `file` is the name its error messages give. Never throws on bad content:
// every problem goes into errors, and the exercises read so far are kept.
Manifest parse(std::istream& in, const std::string& file);
// The same from a file; a file that cannot be opened is one error.
Manifest load(const std::string& path);

// "FILE:LINE: exercise [NN]: exercises/TOPIC/ and solutions/TOPIC/ must both exist" for each
// exercise whose folders are missing under `root` (the repository).
std::vector<std::string> missing_folders(const Manifest& m, const std::string& file, const std::string& root);

// "FILE:LINE: hint[plann]: exercise [08] has no hole \"plann\" (its holes: plan, ready, finish)"
// for each hint tag that names no hole of the exercise's solution files under `root`.
std::vector<std::string> unknown_hint_holes(const Manifest& m, const std::string& file, const std::string& root);

// The holes of exercise e, in order: those of solutions/TOPIC's files, by file name (each
// file's in the order they stand). Empty when the folder cannot be read.
std::vector<std::string> hole_names(const Exercise& e, const std::string& root);

// Which hint `./ringlab hint` shows next (from 0; -1: the exercise has none). The hints about
// the holes in `failed` (the holes the last check found failing on their own, `hint[...]`), and
// the untagged ones, in the manifest's order; every hint when `failed` is empty. The first of
// them not in `shown`; when every one has been shown, the last of them again.
int next_hint(const Exercise& e, const std::vector<int>& shown, const std::vector<std::string>& failed);
// How many of those hints are not yet in `shown`.
int hints_left(const Exercise& e, const std::vector<int>& shown, const std::vector<std::string>& failed);

}  // namespace ringlab::manifest
