// value_relation: each relation between a wrong value and the right one is found when every piece
// of evidence agrees, and not when one piece contradicts it; explain() states a cause firmly only
// when one relation singles it out.
#include <cmath>
#include <limits>
#include <string>

#include "catch.hpp"
#include "ringlab/check/value_relation.hpp"

using ringlab::CauseOf;
using ringlab::explain;
using ringlab::relate;
using ringlab::Relation;
using ringlab::ValueEvidence;

namespace {
bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// What one relation is found, or "several"/"none".
std::string only(const std::vector<ValueEvidence>& ev, int n) {
  const auto found = relate(ev, n);
  if (found.empty()) return "none";
  if (found.size() > 1) return "several";
  return ringlab::describe(found.front(), "chunk");
}

// An allreduce of three ranks' inputs 1, 2, 4 (+ 10 i at element i): the right value is 7 + 30 i.
ValueEvidence sum_case(int i, double got) {
  ValueEvidence e;
  e.expected = 7 + 30 * i;
  e.got = got;
  e.own = 1 + 10 * i;
  e.arrived = 4 + 10 * i;
  e.terms = {1.0 + 10 * i, 2.0 + 10 * i, 4.0 + 10 * i};
  return e;
}
}  // namespace

TEST_CASE("a factor of the right value is named when every value has it") {
  std::vector<ValueEvidence> ev;
  for (int i = 0; i < 4; ++i) ev.push_back(sum_case(i, 3 * (7 + 30 * i)));
  CHECK(only(ev, 3) == "is n = 3 times the right value");
  for (auto& e : ev) e.got = e.expected / 3;
  CHECK(only(ev, 3) == "is 1/n = 1/3 times the right value");
  for (auto& e : ev) e.got = e.expected * 2;
  CHECK(only(ev, 4) == "is sqrt n = 2 times the right value");
  CHECK(only(ev, 3) == "is 2 times the right value");
  for (auto& e : ev) e.got = -e.expected;
  CHECK(only(ev, 3) == "is -1 times the right value");
  for (auto& e : ev) e.got = 0.37 * e.expected;
  CHECK(only(ev, 3) == "is 0.37 times the right value");
  SECTION("one value that disagrees: no factor") {
    ev[2].got = 0.5 * ev[2].expected;
    CHECK(only(ev, 3) == "none");
  }
  SECTION("a factor that is not a named one needs two values to agree on it") {
    ev.resize(1);
    CHECK(only(ev, 3) == "none");
  }
}

TEST_CASE("what arrived, the rank's own value, a term twice") {
  std::vector<ValueEvidence> arrived, own, twice;
  for (int i = 0; i < 3; ++i) {
    arrived.push_back(sum_case(i, 4 + 10 * i));
    own.push_back(sum_case(i, 1 + 10 * i));
    twice.push_back(sum_case(i, 7 + 30 * i + (i == 1 ? 4 + 10 * i : 2 + 10 * i)));  // not always the same term
  }
  CHECK(only(arrived, 3) == "equals what arrived (overwritten, not added to)");
  CHECK(only(own, 3) == "equals the rank's own value (nothing added to it)");
  CHECK(only(twice, 3) == "is the right value plus one term again (a term counted twice)");
  SECTION("the rank's own value divided by n: named, since 1/n is a named factor") {
    for (auto& e : own) e.got = e.own / 3;
    CHECK(only(own, 3) == "is 1/n = 1/3 times the rank's own value (only its own, scaled)");
    for (auto& e : own) e.got = e.own * 0.37;
    CHECK(only(own, 3) == "none");
  }
}

TEST_CASE("zero, NaN, the step before, another place") {
  std::vector<ValueEvidence> ev(3);
  for (int i = 0; i < 3; ++i) {
    ev[i].expected = 1.5 + i;
    ev[i].before = 0.5 + i;
    ev[i].elsewhere = {10.0 + i, 20.0 + i, 30.0 + i};
  }
  for (auto& e : ev) e.got = 0;
  CHECK(only(ev, 2) == "is 0");
  for (auto& e : ev) e.got = NAN;
  CHECK(only(ev, 2) == "is NaN or inf");
  for (auto& e : ev) e.got = e.before;
  CHECK(only(ev, 2) == "equals the value of the step before (not updated, or one step late)");
  for (auto& e : ev) e.got = e.elsewhere[2];
  CHECK(only(ev, 2) == "equals the right value of chunk 2");
  ev[1].got = ev[1].elsewhere[0];
  CHECK(only(ev, 2) == "equals the right value of another chunk");
  ev[1].got = 99;
  CHECK(only(ev, 2) == "none");
}

TEST_CASE("unknown context proves nothing, and no evidence finds nothing") {
  ValueEvidence e;
  e.expected = 2;
  e.got = 5;  // no own value, nothing arrived, no step before: only the factor 2.5, from one value
  CHECK(relate({e}, 3).empty());
  CHECK(relate({}, 3).empty());
}

TEST_CASE("explain: the evidence first, the cause firmly only when one relation singles it out") {
  const std::vector<CauseOf> causes{{Relation::factor, "summed where the mean belongs", 3.0},
                                    {Relation::arrived, "what arrives replaces the sum"},
                                    {Relation::step_before, "the update never reached this rank"}};
  std::vector<ValueEvidence> ev;
  for (int i = 0; i < 2; ++i) ev.push_back(sum_case(i, 3 * (7 + 30 * i)));
  CHECK(explain("step 0, rank 1", ev, 3, causes, "chunk", {5, 6}) ==
        "step 0, rank 1: 2 wrong values, e.g. [5] expected 7 got 21; every wrong value is n = 3 times the right "
        "value: summed where the mean belongs.");
  SECTION("a factor the causes do not name: the relation, no cause") {
    for (auto& e : ev) e.got = 2 * e.expected;
    CHECK(explain("rank 0", ev, 3, causes) ==
          "rank 0: 2 wrong values, e.g. expected 7 got 14; every wrong value is 2 times the right value.");
  }
  SECTION("two relations hold: no firm cause, one possibility") {
    ValueEvidence e;
    e.expected = 3;
    e.got = 1;
    e.arrived = 1;
    e.before = 1;
    const auto text = explain("step 2", {e}, 3, causes);
    CHECK(has(text, "the wrong value equals what arrived (overwritten, not added to) (and equals the value of the "
                    "step before"));
    CHECK(has(text, "the evidence does not single out one cause; one possibility is what arrives replaces the sum; "
                    "another, the update never reached this rank."));
  }
  SECTION("no relation: what is known, and nothing more") {
    ev[1].got = 5;
    CHECK(explain("rank 0", ev, 3, causes) ==
          "rank 0: 2 wrong values, e.g. expected 7 got 21; no simple relation to the right value holds for all of "
          "them.");
  }
}

TEST_CASE("n² and 1/n²: multiplied by n where 1/n belongs, and its inverse") {
  std::vector<ValueEvidence> ev;
  for (int i = 0; i < 3; ++i) ev.push_back(sum_case(i, 9 * (7 + 30 * i)));
  CHECK(only(ev, 3) == "is n² = 9 times the right value");
  for (auto& e : ev) e.got = e.expected / 9;
  CHECK(only(ev, 3) == "is 1/n² = 1/9 times the right value");
  for (auto& e : ev) e.got = e.own / 9;
  CHECK(only(ev, 3) == "is 1/n² = 1/9 times the rank's own value (only its own, scaled)");
}

TEST_CASE("NaN among values of a factor: neither NaN for all nor a factor, so no relation") {
  std::vector<ValueEvidence> ev;
  for (int i = 0; i < 4; ++i) ev.push_back(sum_case(i, 2 * (7 + 30 * i)));
  ev[2].got = NAN;
  CHECK(only(ev, 3) == "none");
}

TEST_CASE("zeros where values belong: 0, never the rank's own value times a factor") {
  std::vector<ValueEvidence> ev;
  for (int i = 0; i < 3; ++i) ev.push_back(sum_case(i, 0));
  CHECK(only(ev, 3) == "is 0");
  // Own 0 there too: still only 0 (the caller, who knows its own values, says whether "never
  // written" is excluded).
  for (auto& e : ev) e.own = 0;
  CHECK(only(ev, 3) == "is 0");
}

// A step on float weights (1 .. 4) by small changes: how far each moved is known only to the
// weight's last bits, which a relation must allow for (ValueEvidence::rounding).
TEST_CASE("a step's change on float weights: factors found within the weights' rounding") {
  const std::vector<double> before{1, 2, 3, 4}, step{-1, 2, 0.5, -3};
  auto moved = [&](double k, double size, double rounding) {
    std::vector<ValueEvidence> ev;
    for (std::size_t i = 0; i < before.size(); ++i) {
      ValueEvidence e;
      e.expected = size * step[i];
      e.got = double(static_cast<float>(before[i] + k * size * step[i])) - before[i];
      e.rounding = rounding * before[i];
      ev.push_back(e);
    }
    return ev;
  };
  const double eps = 2 * 1.1920929e-7;  // two float ulps, relative
  CHECK(only(moved(0, 1e-2, eps), 4) == "is 0");
  CHECK(only(moved(4, 1e-2, eps), 4) == "is n = 4 times the right value");
  CHECK(only(moved(0.25, 1e-2, eps), 4) == "is 1/n = 1/4 times the right value");
  CHECK(only(moved(2, 1e-2, eps), 3) == "is 2 times the right value");
  CHECK(only(moved(-1, 1e-2, eps), 4) == "is -1 times the right value");
  CHECK(only(moved(0.1, 1e-2, eps), 4) == "is 0.1 times the right value");
  CHECK(only(moved(2.9, 1e-2, eps), 4) == "is 2.9 times the right value");
  SECTION("steps of 1e-4 of the weights: the rounding is needed to see the factor") {
    CHECK(only(moved(4, 1e-4, eps), 4) == "is n = 4 times the right value");
    CHECK(only(moved(4, 1e-4, 0), 4) == "none");
  }
}

TEST_CASE("explain: several relations that all name one cause single it out") {
  // A step taken twice from velocity 0: the right step plus one more (0.9 momentum), which is
  // also 2.9 times the right step. Both relations point at the same cause.
  std::vector<ValueEvidence> ev;
  for (double g : {1e-3, -2e-3, 5e-4}) {
    ValueEvidence e;
    e.expected = -g;
    e.terms = {-1.9 * g};
    e.got = -2.9 * g;
    ev.push_back(e);
  }
  const std::string twice = "the optimizer step is taken twice";
  CHECK(explain("step 0", ev, 2, {{Relation::extra_term, twice}, {Relation::factor, twice, 2.9}}) ==
        "step 0: 3 wrong values, e.g. expected -0.001 got -0.0029; every wrong value is the right value plus "
        "one term again (a term counted twice) (and is 2.9 times the right value): the optimizer step is "
        "taken twice.");
  SECTION("one of them without a cause: not singled out") {
    CHECK(has(
        explain("step 0", ev, 2, {{Relation::extra_term, twice}}),
        "the evidence does not single out one cause; one possibility is the optimizer step is taken twice."));
  }
  SECTION("no evidence: nothing to say") {
    CHECK(explain("step 0", {}, 2, {{Relation::extra_term, twice}}).empty());
  }
}

TEST_CASE("a factor named from what the caller knows: its hyperparameters before the factors of n") {
  std::vector<ValueEvidence> ev;
  for (int i = 0; i < 3; ++i) ev.push_back(sum_case(i, 30 * (7 + 30 * i)));
  CHECK(only(ev, 3) == "is 30 times the right value");  // (measured, unnamed)
  const std::vector<ringlab::NamedFactor> known{{0.9 / 0.03, "momentum / lr = 0.9 / 0.03"}};
  const auto found = relate(ev, 3, known);
  REQUIRE(found.size() == 1);
  CHECK(ringlab::describe(found.front()) == "is momentum / lr = 0.9 / 0.03 times the right value");
  const std::vector<CauseOf> causes{{Relation::factor, "the momentum was used as the learning rate", 0.9 / 0.03}};
  CHECK(has(explain("step 0", ev, 3, causes, "place", {}, known),
            "every wrong value is momentum / lr = 0.9 / 0.03 times the right value: the momentum was used as the "
            "learning rate."));
}

TEST_CASE("n/(n - 1): divided by one rank too few; on 2 ranks it is also n, and explain says both") {
  std::vector<ValueEvidence> ev;
  for (int i = 0; i < 3; ++i) ev.push_back(sum_case(i, 1.5 * (7 + 30 * i)));
  CHECK(only(ev, 3) == "is n/(n - 1) = 3/2 times the right value");
  for (auto& e : ev) e.got = 0.75 * e.expected;
  CHECK(only(ev, 4) == "is (n - 1)/n = 3/4 times the right value");
  for (auto& e : ev) e.got = 2 * e.expected;
  const std::vector<CauseOf> causes{{Relation::factor, "summed where the mean belongs", 2.0},
                                    {Relation::factor, "divided by n - 1 where n belongs", 2.0 / 1.0}};
  const auto text = explain("rank 0", ev, 2, causes);
  CHECK(has(text, "every wrong value is n = 2 times the right value: the evidence does not single out one cause; "
                  "one possibility is summed where the mean belongs; another, divided by n - 1 where n belongs."));
  SECTION("on 3 ranks the two factors differ, and each is said firmly") {
    const std::vector<CauseOf> three{{Relation::factor, "summed where the mean belongs", 3.0},
                                     {Relation::factor, "divided by n - 1 where n belongs", 1.5}};
    for (auto& e : ev) e.got = 1.5 * e.expected;
    CHECK(has(explain("rank 0", ev, 3, three), "n/(n - 1) = 3/2 times the right value: divided by n - 1 where n belongs."));
  }
}

TEST_CASE("weights: the own part and the others' counted differently, each by a named weight") {
  // Two ranks; the right value is the mean (own + others) / 2. The owner's own part divided by n
  // before the sum, the others' not: got = own / 2 + others.
  const double own[] = {1, 2, 3, 4}, others[] = {10, 5, 7, 9};
  std::vector<ValueEvidence> ev;
  for (int i = 0; i < 4; ++i) {
    ValueEvidence e;
    e.own = own[i], e.others = others[i];
    e.expected = (own[i] + others[i]) / 2;
    e.got = own[i] / 2 + others[i];
    ev.push_back(e);
  }
  const auto found = relate(ev, 2);
  REQUIRE(found.size() == 1);
  CHECK(found.front().relation == Relation::weights);
  CHECK(ringlab::describe(found.front(), "place") ==
        "is the rank's own part times 1/n = 1/2 plus the other ranks' times 1 (its own counted 1/n = 1/2, theirs 1)");
  CHECK(has(explain("x", ev, 2, {{Relation::weights, "divided before the sum", 0.5, 1.0}}), ": divided before the sum."));
  // A weight for the others that is no named one (1.3): no relation.
  for (int i = 0; i < 4; ++i) ev[i].got = own[i] / 2 + 1.3 * others[i];
  CHECK(relate(ev, 2).empty());
}

TEST_CASE("a cause whose k is infinite (n / (n - 1) on 1 rank) matches no factor; a NaN k matches any") {
  std::vector<ValueEvidence> ev;
  for (double x : {1.0, 2.0, 4.0}) {
    ValueEvidence e;
    e.expected = x, e.got = 0.9 * x;
    ev.push_back(e);
  }
  const double inf = std::numeric_limits<double>::infinity();
  const std::string text = explain("x", ev, 1, {{Relation::factor, "divided by n - 1", inf}}, "place", {},
                                   {{0.9, "the momentum"}});
  CHECK(has(text, "is the momentum times the right value"));
  CHECK_FALSE(has(text, "divided by n - 1"));
  CHECK(has(explain("x", ev, 1, {{Relation::factor, "scaled"}}, "place", {}, {{0.9, "the momentum"}}), ": scaled."));
}

TEST_CASE("constant: one number where the right values differ, named when it is a named factor") {
  std::vector<ValueEvidence> ev;
  for (double x : {0.3, -1.2, 2.5}) {
    ValueEvidence e;
    e.expected = x, e.got = 0.25;  // fill(v, 1/n) on 4 ranks where scale(v, 1/n) belongs
    ev.push_back(e);
  }
  auto found = relate(ev, 4);
  REQUIRE(found.size() == 1);
  CHECK(found[0].relation == Relation::constant);
  CHECK(has(explain("x", ev, 4, {}), "every wrong value is the same number, 0.25 = 1/n = 1/4, where the right values "
                                     "differ (written over them, not computed from them"));
  ev[1].got = 0.26;  // not one number
  CHECK(relate(ev, 4).empty());
  for (auto& e : ev) e.got = 0.25, e.expected = 1.0;  // right values all the same: a factor, not a constant
  found = relate(ev, 4);
  REQUIRE(found.size() == 1);
  CHECK(found[0].relation == Relation::factor);
}
