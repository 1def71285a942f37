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
      "m.txt:6: unknown key \"colour\" (known: topic title np check device ranks-per-host diagnose hint)");
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
      "m.txt:6: diagnose: unknown symptom \"np3\" (known: remainder np2 one-chunk times-np root0 factor-of-n factor-of-workers kept-own)");
  bad("[05]\n" + ok + "device = gpu\n", "m.txt:6: device: \"gpu\" is not a --device (known: cpu sim cuda auto)");
  bad("[05]\n" + ok + "device = sim\ndevice = sim\n", "m.txt:7: device given twice in [05]");
  bad("[05]\n" + ok + "ranks-per-host = two\n", "m.txt:6: ranks-per-host: \"two\" is not a number of ranks (1 or more)");
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

namespace {
const char* kTagged = R"([08]
topic = 08_bucketing
title = Buckets
np = 2
check = --check
hint = The backward pass.
hint[plan] = plan_buckets: walk backwards;
hint =   a full bucket closes.
hint[ready, finish] = gradient_ready and finish.
hint[plan] = Forward order?
hint[finish] = The lines of finish.
)";
}  // namespace

TEST_CASE("hint[hole] tags a hint with the holes it is about; an untagged hint is about every hole") {
  const Manifest m = read(kTagged);
  REQUIRE(m.errors.empty());
  const auto& e = m.exercises[0];
  REQUIRE(e.hints.size() == 5);
  CHECK(e.hints[1] == "plan_buckets: walk backwards;\na full bucket closes.");
  CHECK(e.hint_holes[0].empty());
  CHECK(e.hint_holes[1] == std::vector<std::string>{"plan"});
  CHECK(e.hint_holes[2] == std::vector<std::string>{"ready", "finish"});
  CHECK(e.hint_lines[2] == 9);
  // `get NN hint` prints every hint line's value, tagged or not.
  CHECK(e.fields[5] == std::pair<std::string, std::string>{"hint", "plan_buckets: walk backwards;"});
}

TEST_CASE("a bad hint tag gets one error line") {
  const std::string ok = "topic = t\ntitle = T\nnp = 2\ncheck = --check\n";
  bad("[05]\n" + ok + "hint[] = x\n", "m.txt:6: hint[...]: name the holes, separated by commas: got hint[] = x");
  bad("[05]\n" + ok + "hint[a,] = x\n", "m.txt:6: hint[...]: name the holes, separated by commas: got hint[a,] = x");
  bad("[05]\n" + ok + "hint = x\nhint[a] =   y\n",
      "m.txt:7: a hint's continued line is a plain `hint =` (it belongs to the hint before): hint[a] =   y");
}

TEST_CASE("a hint tag must name a hole of the exercise's solution") {
  const Manifest m = read(
      "[05]\ntopic = 05_ring_allreduce\ntitle = T\nnp = 2\ncheck = --check\nhint[allgather] = a\n"
      "hint[all-gather] = b\n");
  REQUIRE(m.errors.empty());
  CHECK(ringlab::manifest::hole_names(m.exercises[0], RINGLAB_SOURCE_DIR) ==
        std::vector<std::string>{"reduce-scatter", "allgather"});
  const auto unknown = ringlab::manifest::unknown_hint_holes(m, "m.txt", RINGLAB_SOURCE_DIR);
  REQUIRE(unknown.size() == 1);
  CHECK(unknown[0] ==
        "m.txt:7: hint[all-gather]: exercise [05] has no hole \"all-gather\" (its holes: reduce-scatter, allgather)");
  const Manifest shipped = ringlab::manifest::load(RINGLAB_SOURCE_DIR "/exercises/manifest.txt");
  CHECK(ringlab::manifest::unknown_hint_holes(shipped, "manifest.txt", RINGLAB_SOURCE_DIR).empty());
}

TEST_CASE("the next hint follows the holes that failed, in the manifest's order") {
  const Manifest m = read(kTagged);
  const auto& e = m.exercises[0];
  using ringlab::manifest::hints_left;
  using ringlab::manifest::next_hint;
  // No failure recorded: every hint in order, as always.
  CHECK(next_hint(e, {}, {}) == 0);
  CHECK(next_hint(e, {0}, {}) == 1);
  CHECK(next_hint(e, {0, 1, 2, 3}, {}) == 4);
  CHECK(next_hint(e, {0, 1, 2, 3, 4}, {}) == 4);  // all shown: the last again
  CHECK(hints_left(e, {0}, {}) == 4);
  // "ready" failed: the untagged hint, then the one about ready; plan's are skipped.
  CHECK(next_hint(e, {}, {"ready"}) == 0);
  CHECK(next_hint(e, {0}, {"ready"}) == 2);
  CHECK(next_hint(e, {0, 2}, {"ready"}) == 2);
  CHECK(hints_left(e, {0, 2}, {"ready"}) == 0);
  // "finish" failed after hints 1 and 2 were read: the next about finish, the last one included.
  CHECK(next_hint(e, {0, 1}, {"finish"}) == 2);
  CHECK(next_hint(e, {0, 1, 2}, {"finish"}) == 4);
  // Two holes failed: the hints about either.
  CHECK(next_hint(e, {0, 2}, {"ready", "plan"}) == 1);
  // A hole no hint is tagged with: every hint, in order.
  CHECK(next_hint(e, {0}, {"elsewhere"}) == 1);
  CHECK(next_hint(ringlab::manifest::Exercise{}, {}, {}) == -1);  // no hints at all
}
