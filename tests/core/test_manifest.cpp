// The manifest's one reader (manifest.hpp): a good manifest gives its exercises; each kind of bad
// one gives exactly the error line that names the file, the line and what is wrong.
#include <sstream>

#include "catch.hpp"
#include "ringlab/check/manifest.hpp"

using ringlab::manifest::Manifest;

namespace {
Manifest read(const std::string& text) {
  std::istringstream in(text);
  return ringlab::manifest::parse(in, "m.txt");
}
const char* kGood = R"(# a comment
[02]
topic = 02_model_parallel
title = Model parallelism: the forward chain
np = 2 3 4
check = --check --width 32

[05]
topic = 05_ring_allreduce
title = Ring allreduce
np = 1 2 8
check = --check --type int32
check = --check --type float
diagnose = remainder np2
hint = Two phases.
hint = Reduce-scatter, step s: send chunk(r - s);
hint =   then reduce_sum what arrived.
hint = Use chunk(i).
)";
}  // namespace

TEST_CASE("a well-formed manifest gives every exercise with its fields") {
  const Manifest m = read(kGood);
  REQUIRE(m.errors.empty());
  REQUIRE(m.exercises.size() == 2);
  CHECK(m.exercises[0].nn == "02");
  CHECK(m.exercises[0].line == 2);
  CHECK(m.exercises[0].hints.empty());
  const auto* e = m.find("05");
  REQUIRE(e != nullptr);
  CHECK(e->topic == "05_ring_allreduce");
  CHECK(e->title == "Ring allreduce");
  CHECK(e->np == std::vector<int>{1, 2, 8});
  CHECK(e->checks == std::vector<std::string>{"--check --type int32", "--check --type float"});
  CHECK(e->diagnose == std::vector<std::string>{"remainder", "np2"});
  CHECK(m.find("03") == nullptr);
}

TEST_CASE("a hint line that starts with spaces continues the hint before it") {
  const Manifest m = read(kGood);
  const auto* e = m.find("05");
  REQUIRE(e != nullptr);
  REQUIRE(e->hints.size() == 3);
  CHECK(e->hints[0] == "Two phases.");
  CHECK(e->hints[1] == "Reduce-scatter, step s: send chunk(r - s);\nthen reduce_sum what arrived.");
  CHECK(e->hints[2] == "Use chunk(i).");
  // `get` keeps the value as written, minus the one space after "=".
  CHECK(e->fields[8] == std::pair<std::string, std::string>{"hint", "  then reduce_sum what arrived."});
}

TEST_CASE("the shipped manifest is well-formed") {
  const Manifest m = ringlab::manifest::load(RINGLAB_SOURCE_DIR "/exercises/manifest.txt");
  CHECK(m.errors.empty());
  CHECK(m.exercises.size() >= 7);
  CHECK(ringlab::manifest::missing_folders(m, "manifest.txt", RINGLAB_SOURCE_DIR).empty());
}

// One bad line, one error naming it.
void bad(const std::string& text, const std::string& error) {
  INFO(text);
  const Manifest m = read(text);
  REQUIRE(m.errors.size() == 1);
  CHECK(m.errors[0] == error);
}

TEST_CASE("each kind of bad manifest gets one error line naming the file and line") {
  const std::string ok = "topic = t\ntitle = T\nnp = 2\ncheck = --check\n";
  bad("[05]\n" + ok + "colour = red\n",
      "m.txt:6: unknown key \"colour\" (known: topic title np check diagnose hint)");
  bad("[05]\ntopic = t\ntitle = T\ncheck = --check\n", "m.txt:1: exercise [05] has no np line");
  bad("[05]\ntitle = T\nnp = 2\ncheck = --check\n", "m.txt:1: exercise [05] has no topic line");
  bad("[05]\ntopic = t\ntitle = T\nnp = 2\n", "m.txt:1: exercise [05] has no check line");
  bad("[05]\ntopic = t\ntitle = T\nnp = 2 x 4\ncheck = --check\n",
      "m.txt:4: np: \"x\" is not a number of ranks (1 or more)");
  bad("[05]\ntopic = t\ntitle = T\nnp = 0\ncheck = --check\n",
      "m.txt:4: np: \"0\" is not a number of ranks (1 or more)");
  bad("[05]\ntopic = t\ntitle = T\nnp = 4 2\ncheck = --check\n",
      "m.txt:4: np: give the numbers of ranks smallest first");
  bad("[05]\n" + ok + "diagnose = remainder np3\n",
      "m.txt:6: diagnose: unknown symptom \"np3\" (known: remainder np2 one-chunk times-np root0)");
  bad("[5]\n" + ok, "m.txt:1: a block starts with [NN], two digits: got [5]");
  bad("topic = t\n", "m.txt:1: a key before the first [NN]");
  bad("[05]\n" + ok + "just words\n", "m.txt:6: not a key = value line: just words");
  bad("[05]\n" + ok + "[05]\n" + ok, "m.txt:6: exercise [05] twice");
  bad("[05]\n" + ok + "title = again\n", "m.txt:6: title given twice in [05]");
  bad("[05]\n" + ok + "hint = \"quoted\"\n",
      "m.txt:6: no quotes and no continuation with \\: hint = \"quoted\"");
}

TEST_CASE("a manifest that cannot be read is one error") {
  const Manifest m = ringlab::manifest::load("/nonexistent/manifest.txt");
  REQUIRE(m.errors.size() == 1);
  CHECK(m.errors[0] == "/nonexistent/manifest.txt: cannot be read");
}

TEST_CASE("an exercise whose folders are missing is named") {
  const Manifest m = read("[09]\ntopic = 09_nowhere\ntitle = T\nnp = 2\ncheck = --check\n");
  REQUIRE(m.errors.empty());
  const auto missing = ringlab::manifest::missing_folders(m, "m.txt", RINGLAB_SOURCE_DIR);
  REQUIRE(missing.size() == 1);
  CHECK(missing[0] ==
        "m.txt:1: exercise [09]: exercises/09_nowhere/ and solutions/09_nowhere/ must both exist");
}
