// Localising a failed check to its holes (localise.hpp): the verdict line, which holes a later
// message may speak of, and the messages left out because they blame a hole that passes on its
// own, on variants and messages written out here (the messages as the lessons print them).
#include "catch.hpp"
#include "ringlab/check/localise.hpp"

using ringlab::holes::Written;
using ringlab::localise::Variant;

namespace {
// Exercise 05 with a wrong reduce-scatter and an allgather that is right (written differently).
const std::vector<Variant> kWrongReduceScatter{{"reduce-scatter", Written::own, Variant::fails},
                                               {"allgather", Written::own, Variant::passes}};
// ... and the other way round.
const std::vector<Variant> kWrongAllgather{{"reduce-scatter", Written::own, Variant::passes},
                                           {"allgather", Written::own, Variant::fails}};
}  // namespace

TEST_CASE("the verdict names the failing holes first, each against the reference for the others") {
  CHECK(ringlab::localise::verdict(kWrongReduceScatter) ==
        "which hole: your reduce-scatter hole fails with the reference allgather; your allgather hole passes "
        "with the reference reduce-scatter.");
  // The order of the holes in the file does not decide: the failing one comes first.
  const std::vector<Variant> wrong_ready{{"plan", Written::same, Variant::passes},
                                         {"ready", Written::own, Variant::hangs},
                                         {"finish", Written::todo, Variant::no_build}};
  CHECK(ringlab::localise::verdict(wrong_ready) ==
        "which hole: your ready hole hangs with the reference plan and finish; your finish hole (still the TODO) "
        "does not compile with the reference plan and ready; your plan hole passes with the reference ready and "
        "finish.");
  CHECK(ringlab::localise::failing(wrong_ready) == std::vector<std::string>{"ready", "finish"});
  CHECK(ringlab::localise::passing(wrong_ready) == std::vector<std::string>{"plan"});
}

TEST_CASE("with one hole there is nothing to localise; holes that fail only together clear none") {
  CHECK(ringlab::localise::verdict({{"binomial tree", Written::own, Variant::fails}}).empty());
  const std::vector<Variant> together{{"send", Written::own, Variant::passes},
                                      {"receive", Written::own, Variant::passes}};
  CHECK(ringlab::localise::verdict(together) ==
        "which hole: your send hole passes with the reference receive; your receive hole passes with the "
        "reference send. Each passes on its own, so they fail only together: look at what one of them leaves "
        "for the other.");
  CHECK(ringlab::localise::passing(together).empty());
  CHECK(ringlab::localise::failing(together) == std::vector<std::string>{"send", "receive"});
  const std::vector<std::string> lines{"diagnosis: the send hole is wrong."};
  CHECK(ringlab::localise::speak_of_failing(lines, together) == lines);
}

TEST_CASE("a message names a hole as the hole, the phase or its steps, not as an ordinary word") {
  using ringlab::localise::names_hole;
  CHECK(names_hole("diagnosis: allgather step 0: rank 0 sent chunk 0", "allgather"));
  CHECK(names_hole("the allgather phase is missing", "allgather"));
  CHECK(names_hole("That is your Allgather hole;", "allgather"));
  CHECK(names_hole("the allgather adds what arrives instead of copying it", "allgather"));
  CHECK(names_hole("wrong only during the warm-up", "warm-up"));
  CHECK_FALSE(names_hole("reduce-scatter step 0: rank 0 sent chunk 1", "allgather"));
  CHECK_FALSE(names_hole("where the backward pass makes b3 ready: pack the tensors", "ready"));
  CHECK_FALSE(names_hole("the optimizer step is taken more than once", "step"));
  CHECK_FALSE(names_hole("the averaged gradient", "average"));  // part of a longer word
  CHECK_FALSE(names_hole("sum the plans", "plan"));
}

TEST_CASE("later messages leave out what blames a hole that passes on its own, and say so") {
  const std::vector<std::string> lines{
      "    schedule WRONG: ring departs from its schedule; the remaining cases were not run.",
      "    diagnosis: allgather step 0: rank 0 sent chunk 0 to rank 1, expected chunk 1 — the chunk index is "
      "wrong. That is your allgather hole; `./ringlab hint 05` gives its rule, one hint at a time.",
      "    diagnosis: reduce-scatter step 0: rank 0 sent chunk 1 to rank 1, expected chunk 0 — the chunk index "
      "is wrong. That is your reduce-scatter hole; `./ringlab hint 05` gives its rule. Start with the "
      "allgather hole: it is first.",
      "    FAILED: 1 wrong elements"};
  const auto kept = ringlab::localise::speak_of_failing(lines, kWrongReduceScatter);
  CHECK(kept == std::vector<std::string>{
                    lines[0],
                    "    diagnosis: reduce-scatter step 0: rank 0 sent chunk 1 to rank 1, expected chunk 0 — the "
                    "chunk index is wrong. That is your reduce-scatter hole; `./ringlab hint 05` gives its rule.",
                    lines[3],
                    "    (left out: 2 messages about your allgather hole, which passes with the reference for the "
                    "others)"});
  // A sentence that names both a failing and a passing hole stays: it blames the failing one too.
  const std::vector<std::string> both{"the reduce-scatter step leaves the allgather phase nothing to send."};
  CHECK(ringlab::localise::speak_of_failing(both, kWrongReduceScatter) == both);
  // A clause that begins with a passing hole blames it; the evidence before it stays, the cause goes.
  // One that only mentions the passing hole beside the failing one stays.
  const std::vector<std::string> mentions{
      "    diagnosis: the allgather adds: values are too big by the sums the reduce-scatter left — in the "
      "allgather, copy."};
  CHECK(ringlab::localise::speak_of_failing(mentions, kWrongAllgather) == mentions);
  const std::vector<std::string> cause_on_passing{
      "    diagnosis: every chunk holds a partial sum: the allgather phase starts too early — the reduce-scatter "
      "step leaves rank r chunk r + 1. Look there."};
  CHECK(ringlab::localise::speak_of_failing(cause_on_passing, kWrongReduceScatter) ==
        std::vector<std::string>{"    diagnosis: every chunk holds a partial sum.",
                                 "    (left out: 1 message about your allgather hole, which passes with the "
                                 "reference for the others)"});
  // Nothing localised (one hole, or no variants): every line as it was.
  CHECK(ringlab::localise::speak_of_failing(lines, {}) == lines);
}

TEST_CASE("possibilities in holes that pass are ruled out; the one left is said as the cause") {
  using V = ringlab::localise::Variant;
  const std::vector<V> wrong_receive{{"receive", ringlab::holes::Written::own, V::fails},
                                     {"send", ringlab::holes::Written::own, V::passes}};
  const std::vector<std::string> lines{
      "    diagnosis: only its own terms — one possibility is that each rank sends something else: send on the new "
      "y (your send hole); another, that what arrives is not added: receive into y (your receive hole)."};
  CHECK(ringlab::localise::speak_of_failing(lines, wrong_receive) ==
        std::vector<std::string>{"    diagnosis: only its own terms — your send hole passes with the reference, which "
                                 "leaves one cause: what arrives is not added: receive into y (your receive hole)."});
  // The possibility left is not the last: the sentence still ends as it did.
  const std::vector<V> wrong_send{{"receive", ringlab::holes::Written::own, V::passes},
                                  {"send", ringlab::holes::Written::own, V::fails}};
  CHECK(ringlab::localise::speak_of_failing(lines, wrong_send) ==
        std::vector<std::string>{"    diagnosis: only its own terms — your receive hole passes with the reference, "
                                 "which leaves one cause: each rank sends something else: send on the new y (your "
                                 "send hole)."});
  // Two possibilities ruled out in the same passing hole name it once.
  const std::vector<std::string> twice{
      "    diagnosis: 0 arrived — one possibility is that it sends before adding (your send hole); another, that "
      "it sends in its receive hole (your receive hole); another, that it does not receive (your receive hole)."};
  CHECK(ringlab::localise::speak_of_failing(twice, wrong_send) ==
        std::vector<std::string>{"    diagnosis: 0 arrived — your receive hole passes with the reference, which "
                                 "leaves one cause: it sends before adding (your send hole)."});
  // "e.g. " is no full stop: the sentence and its evidence stay whole.
  const std::vector<std::string> eg{"    diagnosis: 3 wrong, e.g. [0] expected 1 got 2; every wrong value is 0: the send "
                                    "hole writes zeros."};
  CHECK(ringlab::localise::speak_of_failing(eg, wrong_receive) ==
        std::vector<std::string>{"    diagnosis: 3 wrong, e.g. [0] expected 1 got 2; every wrong value is 0.",
                                 "    (left out: 1 message about your send hole, which passes with the reference "
                                 "for the others)"});
  // Both holes fail: both possibilities stay.
  const std::vector<V> both{{"receive", ringlab::holes::Written::own, V::fails},
                            {"send", ringlab::holes::Written::own, V::fails}};
  CHECK(ringlab::localise::speak_of_failing(lines, both) == lines);
  // Untagged possibilities (relations of values, not holes) are left as they are.
  const std::vector<std::string> untagged{"    diagnosis: x — one possibility is A; another, B."};
  CHECK(ringlab::localise::speak_of_failing(untagged, wrong_receive) == untagged);
  // The one left is untagged (either hole may hold it), and the sentence names no failing hole:
  // what it says of the passing hole is the pruning's own, so it stays (exercise 06's zero_grad
  // between the average and the update, where integers' 1 / n is the average hole's reading).
  const std::vector<std::string> one_tagged{
      "    diagnosis: step 0, grad: every wrong value is 0: one possibility is that grad was multiplied by 0 (your "
      "send hole); another, that it was overwritten with zeros."};
  CHECK(ringlab::localise::speak_of_failing(one_tagged, wrong_receive) ==
        std::vector<std::string>{"    diagnosis: step 0, grad: every wrong value is 0: your send hole passes with the "
                                 "reference, which leaves one cause: it was overwritten with zeros."});
}

TEST_CASE("the script's lines of variants are read, and a bad one is refused with its line") {
  std::string error;
  const auto v = ringlab::localise::parse("reduce-scatter\town\tfails\nallgather\tsame\tpasses\n", error);
  REQUIRE(error.empty());
  REQUIRE(v.size() == 2);
  CHECK(v[0].hole == "reduce-scatter");
  CHECK(v[0].outcome == Variant::fails);
  CHECK(v[1].written == Written::same);
  CHECK(v[1].outcome == Variant::passes);
  CHECK(ringlab::localise::parse("a\town\tfails\nb\tmine\tpasses\n", error).empty());
  CHECK(error == "line 2: \"mine\" is not same, todo or own");
  CHECK(ringlab::localise::parse("a fails\n", error).empty());
  CHECK(error == "line 1: want NAME<TAB>WRITTEN<TAB>OUTCOME, got \"a fails\"");
}
