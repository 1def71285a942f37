// The holes of an exercise (holes.hpp): the markers, filling a file of holes into a solution,
// and what differs outside the holes, on small texts written out here.
#include "catch.hpp"
#include "ringlab/check/holes.hpp"

using ringlab::holes::diff_outside;
using ringlab::holes::File;
using ringlab::holes::holes_without_todo;
using ringlab::holes::is_begin;
using ringlab::holes::is_end;
using ringlab::holes::lines_of;
using ringlab::holes::split;
// fill is called by its full name: with a std::string argument, a bare fill() could be std::fill.

namespace {
// A solution with two holes, and a mistake that fills one of them (its comments are not used).
const char* kSolution = R"(int f(int x) {
  // ==== BEGIN EXERCISE: add ====
  x += 1;
  // ==== END EXERCISE ====
  return x;
}
// ==== BEGIN EXERCISE: twice ====
int g(int x) { return 2 * x; }
// ==== END EXERCISE ====
)";
const char* kMistake = R"(// mistake: adds two
// expect: 1
  // ==== BEGIN EXERCISE: add ====
  x += 2;  // the bug
  // ==== END EXERCISE ====
)";
}  // namespace

TEST_CASE("a marker is a whole line, indented by spaces or tabs") {
  std::string name;
  CHECK(is_begin("// ==== BEGIN EXERCISE: allgather ====", &name));
  CHECK(name == "allgather");
  CHECK(is_begin("\t  // ==== BEGIN EXERCISE: reduce-scatter ====  \t", &name));
  CHECK(name == "reduce-scatter");
  CHECK(is_end("    // ==== END EXERCISE ==== "));
  CHECK_FALSE(is_begin("x = 1;  // ==== BEGIN EXERCISE: a ===="));  // not the whole line
  CHECK_FALSE(is_begin("// ==== BEGIN EXERCISE: a ====\r"));        // a Windows line end is not a space
  CHECK_FALSE(is_begin("// ==== BEGIN EXERCISE: a"));
  CHECK_FALSE(is_end("// ==== END EXERCISE"));
}

TEST_CASE("lines are split at newlines, a last line without one included") {
  CHECK(lines_of("") == std::vector<std::string>{});
  CHECK(lines_of("a\n\nb\n") == std::vector<std::string>{"a", "", "b"});
  CHECK(lines_of("a\nb") == std::vector<std::string>{"a", "b"});
}

TEST_CASE("a file is cut at its holes, with their names, markers' lines and bodies") {
  const File f = split(kSolution);
  REQUIRE(f.error.empty());
  REQUIRE(f.holes.size() == 2);
  CHECK(f.holes[0].name == "add");
  CHECK(f.holes[0].begin == 2);
  CHECK(f.holes[0].end == 4);
  CHECK(f.holes[0].body == std::vector<std::string>{"  x += 1;"});
  CHECK(f.holes[1].name == "twice");
  CHECK(f.holes[1].body == std::vector<std::string>{"int g(int x) { return 2 * x; }"});
}

TEST_CASE("markers that do not pair up are named with their line") {
  const std::string begin = "// ==== BEGIN EXERCISE: a ====\n", end = "// ==== END EXERCISE ====\n";
  CHECK(split(begin + begin + end).error == "line 2: BEGIN inside the hole opened at line 1");
  CHECK(split("x\n" + end).error == "line 2: END without a BEGIN before it");
  CHECK(split("x\n" + begin + "y\n").error == "line 2: the hole opened here is never closed");
}

TEST_CASE("fill puts the holes' bodies into the solution, every other line as it was") {
  std::string error;
  const std::string filled = ringlab::holes::fill(kSolution, kMistake, error);
  CHECK(error.empty());
  CHECK(filled == R"(int f(int x) {
  // ==== BEGIN EXERCISE: add ====
  x += 2;  // the bug
  // ==== END EXERCISE ====
  return x;
}
// ==== BEGIN EXERCISE: twice ====
int g(int x) { return 2 * x; }
// ==== END EXERCISE ====
)");
}

TEST_CASE("fill with no holes gives the solution, with a newline after its last line") {
  std::string error;
  CHECK(ringlab::holes::fill("a\nb\n", "just a comment\n", error) == "a\nb\n");
  CHECK(ringlab::holes::fill("a\nb", "", error) == "a\nb\n");
  CHECK(error.empty());
}

TEST_CASE("fill refuses a hole the solution does not have, and broken markers") {
  std::string error;
  CHECK(ringlab::holes::fill(kSolution,
                             "// ==== BEGIN EXERCISE: sub ====\nx -= 1;\n// ==== END EXERCISE ====\n", error)
            .empty());
  CHECK(error == "no hole \"sub\" in the solution");
  ringlab::holes::fill(kSolution, "// ==== BEGIN EXERCISE: add ====\nx += 2;\n", error);
  CHECK(error == "the holes, line 1: the hole opened here is never closed");
  const std::string twice = "// ==== BEGIN EXERCISE: add ====\n// ==== END EXERCISE ====\n";
  ringlab::holes::fill(kSolution, twice + twice, error);
  CHECK(error == "the holes, line 3: hole \"add\" again (the first is at line 1)");
}

TEST_CASE("an exercise the same outside its holes has no differences, whatever the holes hold") {
  std::string error;
  const std::string exercise = ringlab::holes::fill(kSolution, R"(// ==== BEGIN EXERCISE: add ====
  // TODO(exercise): add one to x.
  // (two lines where the solution has one)
// ==== END EXERCISE ====
)",
                                                    error);
  REQUIRE(error.empty());
  CHECK(diff_outside(split(kSolution), split(exercise)).empty());
  CHECK(holes_without_todo(split(exercise)).size() == 1);  // "twice" still holds the solution
  CHECK(holes_without_todo(split(exercise))[0].name == "twice");
}

TEST_CASE("differences outside the holes are shown as diff shows them, with each file's line numbers") {
  const File solution =
      split("a\n// ==== BEGIN EXERCISE: h ====\nsolved\n// ==== END EXERCISE ====\nb\nc\nd\n");
  // The exercise's hole is two lines longer; then "b" changed, "c" deleted and "e" added.
  const File exercise = split(
      "a\n// ==== BEGIN EXERCISE: h ====\n// TODO(exercise)\n...\n...\n// ==== END EXERCISE ====\nB\nd\ne\n");
  CHECK(diff_outside(solution, exercise) ==
        std::vector<std::string>{"5,6c7", "< b", "< c", "---", "> B", "7a9", "> e"});
  CHECK(diff_outside(split("x\ny\n"), split("y\n")) == std::vector<std::string>{"1d0", "< x"});
  CHECK(diff_outside(split("x\n"), split("w\nx\n")) == std::vector<std::string>{"0a1", "> w"});
}

TEST_CASE("fill_one takes only the named hole from the learner's file, every other the solution's") {
  // The learner wrote both holes; the variant for "add" keeps the solution's "twice".
  const std::string learner = R"(int f(int x) {
  // ==== BEGIN EXERCISE: add ====
  x += 2;
  // ==== END EXERCISE ====
  return x;
}
// ==== BEGIN EXERCISE: twice ====
int g(int x) { return x + x + x; }
// ==== END EXERCISE ====
)";
  std::string error;
  const File add = split(ringlab::holes::fill_one(kSolution, learner, "add", error));
  REQUIRE(error.empty());
  REQUIRE(add.holes.size() == 2);
  CHECK(add.holes[0].body == std::vector<std::string>{"  x += 2;"});
  CHECK(add.holes[1].body == std::vector<std::string>{"int g(int x) { return 2 * x; }"});
  const File twice = split(ringlab::holes::fill_one(kSolution, learner, "twice", error));
  REQUIRE(error.empty());
  CHECK(twice.holes[0].body == std::vector<std::string>{"  x += 1;"});
  CHECK(twice.holes[1].body == std::vector<std::string>{"int g(int x) { return x + x + x; }"});
  // Outside the holes the variant is the solution, line for line.
  CHECK(diff_outside(split(kSolution), add).empty());
  // A name the learner's file lacks: the solution as it is.
  CHECK(ringlab::holes::fill_one(kSolution, kMistake, "twice", error) == kSolution);
  CHECK(error.empty());
}

TEST_CASE("a learner's hole is the solution's, still the TODO, or their own code") {
  using ringlab::holes::Written;
  auto hole = [](std::vector<std::string> body) { return ringlab::holes::Hole{"h", 1, 2, std::move(body)}; };
  const auto solution = hole({"  x += 1;"});
  CHECK(ringlab::holes::written(hole({"  x += 1;  "}), solution) == Written::same);  // spaces at the end
  CHECK(ringlab::holes::written(hole({"  // TODO(exercise): add one", "  (void)x;  // TODO(exercise): delete"}),
                                solution) == Written::todo);
  // Code written under the TODO comment is the learner's own.
  CHECK(ringlab::holes::written(hole({"  // TODO(exercise): add one", "  x += 2;"}), solution) == Written::own);
  CHECK(ringlab::holes::written(hole({"  x = x + 1;"}), solution) == Written::own);
  CHECK(ringlab::holes::written(hole({}), solution) == Written::own);  // emptied: nothing written
}
