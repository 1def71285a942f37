// The holes of an exercise (docs/exercises.md, "Holes"). In a solution file, the code attendees
// write sits between two marker lines, each a whole line, indented like the code around it:
//
//   // ==== BEGIN EXERCISE: reduce-scatter ====
//   ...the solution's code...
//   // ==== END EXERCISE ====
//
// The exercise's copy of the file has the same markers around TODO(exercise) lines; everywhere
// else the two files are the same, line for line. A typical mistake (tests/exercises/mistakes/)
// is a file of holes only, filled wrongly: filled into the solution, it makes the whole header.
// `ringlab-manifest fill|same|resync` (scripts/ringlab-exercise) do that with the functions
// below; tests/core/test_holes.cpp tests them. No MPI, no files: text in, text out.
#pragma once
#include <string>
#include <vector>

namespace ringlab::holes {

// "  // ==== BEGIN EXERCISE: allgather ====" -> true, and *name = "allgather".
bool is_begin(const std::string& line, std::string* name = nullptr);
// "  // ==== END EXERCISE ====" -> true.
bool is_end(const std::string& line);

// A text's lines, split at '\n' (a last line without one is a line too). Every line is written
// back with a '\n' after it.
std::vector<std::string> lines_of(const std::string& text);

struct Hole {
  std::string name;
  int begin = 0, end = 0;         // the line numbers (from 1) of its two markers
  std::vector<std::string> body;  // the lines between them
};

// A file cut at its holes.
struct File {
  std::vector<std::string> lines;
  std::vector<Hole> holes;
  // What is wrong with the markers ("line 9: BEGIN inside the hole opened at line 4"); empty when
  // every hole is opened once and closed once.
  std::string error;
};
File split(const std::string& text);

// The solution with each hole that `holes` has replaced by the body `holes` gives it, markers
// kept; the lines of `holes` outside its holes (a mistake's comments) are not used. A hole of
// `holes` that the solution lacks is an error: `error` says which, and the result is empty.
std::string fill(const std::string& solution, const std::string& holes, std::string& error);

// The same with only the hole named `name` taken from `holes`, every other hole the solution's:
// the variant that tells whether that one hole of the learner's fails the check on its own
// (`ringlab-manifest variants`). A `name` that `holes` lacks gives the solution unchanged.
std::string fill_one(const std::string& solution, const std::string& holes, const std::string& name,
                     std::string& error);

// What the learner made of one hole: the solution's code (to the spaces at the ends of its lines:
// nothing to check), still the exercise's TODO (a TODO(exercise) line and no code but the lines
// that say TODO(exercise) themselves), or code of their own.
enum class Written { same, todo, own };
Written written(const Hole& learner, const Hole& solution);

// Where two files differ outside their holes (the markers count as outside: a hole must stand
// in the same place), as `diff` prints it: "12c12", "< solution's line", "---", "> exercise's
// line". The numbers are each file's own line numbers. Empty when they are the same.
std::vector<std::string> diff_outside(const File& solution, const File& exercise);

// The holes of an exercise file that do not say what to write: no TODO(exercise) line inside.
std::vector<Hole> holes_without_todo(const File& exercise);

}  // namespace ringlab::holes
