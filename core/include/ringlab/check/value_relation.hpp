// How a wrong value relates to the right one. A check that found wrong values knows more than
// "expected 6, got 9": it often knows what this rank put in (its own value), what arrived from a
// peer, what the value was a step before, and what the right values are elsewhere. One of a few
// simple relations usually holds between the wrong value and these, and each points at a cause:
//   arrived      equals what arrived             the value was overwritten, not added to
//   own          equals the rank's own value     nothing was added (or k times it: own / n)
//   extra term   the right value plus one term   one term was added twice
//   factor       k times the right value         k = n, 1/n, n², 1/n², sqrt n, 1/sqrt n, n/(n - 1),
//                                                 (n - 1)/n, 2, 1/2, -1, or a factor the caller knows
//                                                 by name (its hyperparameters: momentum / lr)
//   zero         0                               never written
//   constant     one number everywhere (not 0)   written over the values, not computed from them
//                                                 (only when no other relation holds)
//   not finite   NaN or inf                      a division by zero, memory nobody wrote
//   step before  the value one step earlier      not updated, or one step late
//   elsewhere    the right value of another place  the wrong chunk, peer or step
//   weights      a own + b others                 the rank's own part counted a times, the other
//                                                 ranks' b times (own / n + others: divided before
//                                                 the sum, only its own part)
// A relation is found only when it holds for EVERY piece of evidence; when more than one holds,
// or one relation fits two causes (on 2 ranks n = 2 is also n/(n - 1)), the evidence does not
// single out a cause, and explain() says so ("one possibility is ...; another, ...").
// No MPI: tested with data alone (tests/core/test_value_relation.cpp).
#pragma once
#include <cmath>
#include <string>
#include <vector>

namespace ringlab {

// One wrong value and what the check knows around it (NaN: not known).
struct ValueEvidence {
  double expected = 0, got = 0;
  double own = NAN;      // this rank's own contribution here (its input, its gradient)
  double arrived = NAN;  // what arrived from a peer here
  double others = NAN;   // the other ranks' contributions here, summed (the right sum less `own`)
  double before = NAN;   // the value one step earlier (before the step, or the previous step's)
  double rounding = 0;   // how far `got` may be off by rounding alone (a small change of a large
                         // float weight is known only to the weight's last bits)
  std::vector<double> terms = {};      // terms a mistake may add once too often (the right sum's
                                       // own terms; the step before's contribution; one more step)
  std::vector<double> elsewhere = {};  // the right values of the other places (chunks, ranks, steps)
};

// A factor the caller can name from what it knows beyond n: its hyperparameters ("momentum / lr =
// 0.9 / 0.03"), its own counts ("workers = n - 1"). Tried before the factors of n, so that k is
// named for what it is.
struct NamedFactor {
  double k;
  std::string name;
};

enum class Relation { not_finite, zero, arrived, own, extra_term, factor, step_before, elsewhere, weights, constant };

struct RelationFound {
  Relation relation;
  double k = 1;        // factor, own: got = k * (expected, own); constant: got = k
  std::string k_name = {};  // "n = 3", "1/n", "sqrt n", "2", "-1", or the number
  int place = -1;      // elsewhere: the index into `elsewhere` (the same for every value), else -1
  double k2 = 1;             // weights: got = k * own + k2 * others
  std::string k2_name = {};
};

// Every relation that holds for all of `evidence` (n: the number of ranks, for naming k; `known`:
// the caller's own named factors), most specific first. Empty when none holds, or when there is
// no evidence.
std::vector<RelationFound> relate(const std::vector<ValueEvidence>& evidence, int n,
                                  const std::vector<NamedFactor>& known = {});

// The relation in words: "it equals what arrived", "it is n = 3 times the right value".
// `place_name` names elsewhere's places ("chunk", "step"); describe() says "another chunk" or
// "chunk 2" when the place is the same everywhere.
std::string describe(const RelationFound& found, const std::string& place_name = "place");

// What one relation means in the caller's code: "summed where the mean belongs".
struct CauseOf {
  Relation relation;
  std::string cause;
  double k = NAN;   // factor, own, weights: only for this k, to 1e-4 (a measured one: 2 + momentum); NaN: any
  double k2 = NAN;  // weights: only for this weight of the others; NaN: any
};

// Evidence first, then the cause when the evidence singles it out. One sentence:
//   WHERE: COUNT wrong, e.g. [i] expected E got G; every wrong value RELATION — CAUSE.
// The cause is stated firmly only when the relations that hold all point at it: exactly one
// relation, or several that `causes` all give the same cause (two ways of seeing one mistake,
// such as a step taken twice, which at velocity 0 is also a factor 2 + momentum), and no relation
// that `causes` gives two different causes (a factor 2 on 2 ranks: the sum where the mean belongs,
// or a division by n - 1 where n belongs). Otherwise it says "one possibility is CAUSE; another,
// CAUSE2" for the causes of the first relation a cause matches (or of the two first); with no
// relation it says what is known and stops.
// `index` (optional, one per evidence) names where each value is ("[i]" in the example); `known`
// is relate()'s.
std::string explain(const std::string& where, const std::vector<ValueEvidence>& evidence, int n,
                    const std::vector<CauseOf>& causes, const std::string& place_name = "place",
                    const std::vector<long long>& index = {}, const std::vector<NamedFactor>& known = {});

}  // namespace ringlab
