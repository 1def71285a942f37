// relate() and explain() (value_relation.hpp): each relation is tried on every piece of evidence
// and kept only when all of them agree, so a sentence never rests on the values that happen to fit.
#include "ringlab/check/value_relation.hpp"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "ringlab/base/plural.hpp"

namespace ringlab {

namespace {

std::string number(double v, int digits = 6) {
  char s[32];
  std::snprintf(s, sizeof s, "%.*g", digits, v);
  return s;
}

// Equal to float rounding: relative, with a floor at the scale of all the evidence so that values
// near 0 (a gradient element that almost cancels) are not judged by their ratio, and the
// rounding the caller knows of the value itself (ValueEvidence::rounding).
struct Near {
  double floor = 0;
  bool operator()(double a, double b, double rounding = 0) const {
    if (!std::isfinite(a) || !std::isfinite(b)) return false;
    return std::fabs(a - b) <= 1e-4 * std::fmax(std::fabs(a), std::fabs(b)) + floor + rounding;
  }
};

// The factors a mistake makes, by name: the caller's own (its hyperparameters) first, then
// counting the ranks once too often or too seldom, twice over (multiplied by n where 1/n belongs:
// n² times the mean), a square root of it (a learning-rate rule), one rank too few or too many in
// a count (divided by n - 1 where n belongs: n/(n - 1)), doubling, halving, a sign. Where two
// coincide (n/(n - 1) = 2 = n on 2 ranks) the first names k; explain() still sees both causes.
std::vector<NamedFactor> named_factors(int n, const std::vector<NamedFactor>& known) {
  std::vector<NamedFactor> list = known;
  if (n > 1) {
    const std::string ns = std::to_string(n), less = std::to_string(n - 1);
    const std::string root = number(std::sqrt(double(n)));
    list.push_back({double(n), "n = " + ns});
    list.push_back({1.0 / n, "1/n = 1/" + ns});
    list.push_back({double(n) * n, "n² = " + std::to_string(n * n)});
    list.push_back({1.0 / (double(n) * n), "1/n² = 1/" + std::to_string(n * n)});
    list.push_back({std::sqrt(double(n)), "sqrt n = " + root});
    list.push_back({1.0 / std::sqrt(double(n)), "1/sqrt n = 1/" + root});
    list.push_back({double(n) / (n - 1), "n/(n - 1) = " + ns + "/" + less});
    list.push_back({double(n - 1) / n, "(n - 1)/n = " + less + "/" + ns});
  }
  list.push_back({2, "2"});
  list.push_back({0.5, "1/2"});
  list.push_back({-1, "-1"});
  return list;
}

// The k with got == k * base for every piece of evidence, if there is one; `name` gets its name
// when it is one of `named` (named_factors). base() of each piece must be known (not NaN).
template <class Base>
bool common_factor(const std::vector<ValueEvidence>& ev, const std::vector<NamedFactor>& named, const Near& near,
                   Base base, double& k, std::string& name) {
  double largest = 0, got_base = 0, base_base = 0;  // k by least squares: the large values weigh most
  for (const auto& e : ev) {
    if (std::isnan(base(e)) || !std::isfinite(e.got)) return false;
    largest = std::fmax(largest, std::fabs(base(e)));
    got_base += e.got * base(e);
    base_base += base(e) * base(e);
  }
  if (largest == 0) return false;
  auto fits = [&](double factor) {
    return std::all_of(ev.begin(), ev.end(),
                       [&](const ValueEvidence& e) { return near(e.got, factor * base(e), e.rounding); });
  };
  k = got_base / base_base;
  // 1 or a named factor when every value fits it, rounding included, and the measured k is within
  // 1% of it (values all lost in their rounding name no factor).
  auto candidates = named;
  candidates.insert(candidates.begin(), {1, "1"});
  for (const auto& f : candidates)
    if (std::fabs(k - f.k) <= 1e-2 * std::fabs(f.k) && fits(f.k)) {
      k = f.k;
      name = f.name;
      return true;
    }
  name.clear();
  if (!fits(k)) return false;
  // An unnamed factor fits any single value: it needs two values that agree on it.
  const auto informative = std::count_if(
      ev.begin(), ev.end(), [&](const ValueEvidence& e) { return std::fabs(base(e)) > 1e-3 * largest; });
  return informative >= 2;
}

// got == a * own + b * others for every piece of evidence, a and b each 0, 1 or a named factor
// (least squares for the two, then each snapped to its name and every value checked).
bool two_weights(const std::vector<ValueEvidence>& ev, const std::vector<NamedFactor>& named, const Near& near,
                 double& a, std::string& a_name, double& b, std::string& b_name) {
  double oo = 0, ot = 0, tt = 0, go = 0, gt = 0;
  for (const auto& e : ev) {
    if (std::isnan(e.own) || std::isnan(e.others) || !std::isfinite(e.got)) return false;
    oo += e.own * e.own, ot += e.own * e.others, tt += e.others * e.others;
    go += e.got * e.own, gt += e.got * e.others;
  }
  const double det = oo * tt - ot * ot;
  if (ev.size() < 3 || !(std::fabs(det) > 1e-9 * oo * tt)) return false;  // own and others not apart
  auto snap = [&](double x, double& k, std::string& name) {
    std::vector<NamedFactor> candidates = named;
    candidates.insert(candidates.begin(), {{0, "0"}, {1, "1"}});
    for (const auto& f : candidates)
      if (std::fabs(x - f.k) <= 1e-2 * std::fmax(std::fabs(f.k), 1e-2)) return k = f.k, name = f.name, true;
    return false;
  };
  if (!snap((go * tt - gt * ot) / det, a, a_name) || !snap((gt * oo - go * ot) / det, b, b_name)) return false;
  return std::all_of(ev.begin(), ev.end(),
                     [&](const ValueEvidence& e) { return near(e.got, a * e.own + b * e.others, e.rounding); });
}

}  // namespace

std::vector<RelationFound> relate(const std::vector<ValueEvidence>& evidence, int n,
                                  const std::vector<NamedFactor>& known) {
  std::vector<RelationFound> found;
  if (evidence.empty()) return found;
  const auto named = named_factors(n, known);
  double scale = 0;
  for (const auto& e : evidence)
    for (double v : {e.expected, e.got})
      if (std::isfinite(v)) scale = std::fmax(scale, std::fabs(v));
  const Near near{1e-7 * scale};
  auto all = [&](auto holds) { return std::all_of(evidence.begin(), evidence.end(), holds); };
  auto add = [&](Relation r, double k = 1, std::string name = "", int place = -1) {
    found.push_back({r, k, std::move(name), place});
  };

  if (all([](const ValueEvidence& e) { return !std::isfinite(e.got) && std::isfinite(e.expected); }))
    add(Relation::not_finite);
  if (all([&](const ValueEvidence& e) {
        return std::isfinite(e.got) && std::fabs(e.got) <= near.floor + e.rounding;
      }))
    add(Relation::zero);
  if (all([&](const ValueEvidence& e) { return near(e.got, e.arrived, e.rounding); })) add(Relation::arrived);
  double k = 1;
  std::string name;
  // Where the rank's own value IS the right value (one rank), relating to it says nothing more.
  const bool own_is_right = all([&](const ValueEvidence& e) { return near(e.own, e.expected); });
  const bool own = !own_is_right && common_factor(evidence, named, near, [](const ValueEvidence& e) { return e.own; }, k, name);
  const bool own_exactly = own && k == 1;
  if (own_exactly) add(Relation::own, 1, "1");
  if (all([&](const ValueEvidence& e) {
        return std::any_of(e.terms.begin(), e.terms.end(),
                           [&](double t) { return t != 0 && near(e.got, e.expected + t, e.rounding); });
      }))
    add(Relation::extra_term);
  if (all([&](const ValueEvidence& e) { return near(e.got, e.before, e.rounding); }))
    add(Relation::step_before);
  // Elsewhere: the same other place for every value, or some other place for each.
  std::size_t places = evidence.front().elsewhere.size();
  for (const auto& e : evidence) places = std::min(places, e.elsewhere.size());
  int same_place = -1;
  for (std::size_t p = 0; p < places && same_place < 0; ++p)
    if (all([&](const ValueEvidence& e) { return near(e.got, e.elsewhere[p], e.rounding); }))
      same_place = static_cast<int>(p);
  if (same_place >= 0) add(Relation::elsewhere, 1, "", same_place);
  else if (places && all([&](const ValueEvidence& e) {
             return std::any_of(e.elsewhere.begin(), e.elsewhere.end(),
                                [&](double v) { return near(e.got, v, e.rounding); });
           }))
    add(Relation::elsewhere);
  // The rank's own value times a factor is a relation only for a named factor (own / n: the rank's
  // gradient alone, averaged as if it were the sum); any factor would fit one value.
  if (own && !own_exactly && name.size()) add(Relation::own, k, name);
  if (common_factor(evidence, named, near, [](const ValueEvidence& e) { return e.expected; }, k, name) && k != 0 &&
      k != 1)
    add(Relation::factor, k, name.empty() ? number(k, 4) : name);  // (measured: 4 digits)
  // Weights: the own part and the others' counted differently, both by a named weight (any two
  // numbers fit two values). Equal weights are a factor of the sum, others' weight 0 is `own`.
  double a = 0, b = 0;
  std::string a_name, b_name;
  if (two_weights(evidence, named, near, a, a_name, b, b_name) && a != b && b != 0)
    found.push_back({Relation::weights, a, a_name, -1, b, b_name});
  // Values within rounding of 0 that are all written (none exactly 0) and all the same factor of
  // the right ones were scaled, not left unwritten or zeroed: the factor says it, "0" would not.
  const auto has = [&](Relation r) {
    return std::any_of(found.begin(), found.end(), [&](const RelationFound& f) { return f.relation == r; });
  };
  if (has(Relation::zero) && has(Relation::factor) && all([](const ValueEvidence& e) { return e.got != 0; }))
    found.erase(std::find_if(found.begin(), found.end(), [](const RelationFound& f) { return f.relation == Relation::zero; }));
  // Nothing else, and one number in every place whose right values differ: that number was
  // written over them (a fill where a scale belongs, say). Named when it is a named factor.
  const double c = evidence.front().got;
  const bool right_differ = !all([&](const ValueEvidence& e) { return near(e.expected, evidence.front().expected); });
  if (found.empty() && evidence.size() >= 2 && right_differ && std::isfinite(c) && c != 0 &&
      all([&](const ValueEvidence& e) { return near(e.got, c, e.rounding); })) {
    std::string c_name;
    for (const auto& f : named)
      if (c_name.empty() && std::fabs(c - f.k) <= 1e-4 * std::fabs(f.k)) c_name = f.name;
    add(Relation::constant, c, c_name.empty() ? number(c) : number(c) + " = " + c_name);
  }
  return found;
}

std::string describe(const RelationFound& f, const std::string& place_name) {
  switch (f.relation) {
    case Relation::not_finite: return "is NaN or inf";
    case Relation::zero: return "is 0";
    case Relation::arrived: return "equals what arrived (overwritten, not added to)";
    case Relation::own:
      return f.k == 1 ? "equals the rank's own value (nothing added to it)"
                      : "is " + f.k_name + " times the rank's own value (only its own, scaled)";
    case Relation::extra_term: return "is the right value plus one term again (a term counted twice)";
    case Relation::factor: return "is " + f.k_name + " times the right value";
    case Relation::step_before: return "equals the value of the step before (not updated, or one step late)";
    case Relation::weights:
      return "is the rank's own part times " + f.k_name + " plus the other ranks' times " + f.k2_name +
             " (its own counted " + f.k_name + ", theirs " + f.k2_name + ")";
    case Relation::constant:
      return "is the same number, " + f.k_name +
             ", where the right values differ (written over them, not computed from them: set to it where "
             "they should be multiplied by it, say)";
    case Relation::elsewhere:
      return f.place >= 0 ? "equals the right value of " + place_name + " " + std::to_string(f.place)
                          : "equals the right value of another " + place_name;
  }
  return "";
}

namespace {
// A cause's k against the one found: NaN is any k; an infinite one (n / (n - 1) on 1 rank) none.
bool matches(double cause_k, double found_k) {
  if (std::isnan(cause_k)) return true;
  return std::isfinite(cause_k) && std::fabs(cause_k - found_k) <= 1e-4 * std::fabs(cause_k);
}
}  // namespace

std::string explain(const std::string& where, const std::vector<ValueEvidence>& evidence, int n,
                    const std::vector<CauseOf>& causes, const std::string& place_name,
                    const std::vector<long long>& index, const std::vector<NamedFactor>& known) {
  if (evidence.empty()) return "";
  const ValueEvidence& first = evidence.front();
  std::string text = where + ": " + plural(static_cast<long long>(evidence.size()), "wrong value") + ", e.g. ";
  if (!index.empty()) text.append("[").append(std::to_string(index.front())).append("] ");
  text += "expected " + number(first.expected) + " got " + number(first.got);
  const auto found = relate(evidence, n, known);
  const std::string every = evidence.size() == 1 ? "the wrong value " : "every wrong value ";
  if (found.empty()) return text + "; no simple relation to the right value holds for all of them.";
  text += "; " + every + describe(found.front(), place_name);
  for (std::size_t i = 1; i < found.size(); ++i) text += (i == 1 ? " (and " : ", and ") + describe(found[i], place_name);
  if (found.size() > 1) text += ")";
  // Each relation's causes: every one `causes` gives for it (one k can be two counts' factor).
  std::vector<std::vector<const std::string*>> cause_of;
  for (const auto& f : found) {
    auto& mine = cause_of.emplace_back();
    for (const auto& c : causes)
      if (c.relation == f.relation && matches(c.k, f.k) && matches(c.k2, f.k2) &&
          std::none_of(mine.begin(), mine.end(), [&](const std::string* m) { return *m == c.cause; }))
        mine.push_back(&c.cause);
  }
  // The possibilities, in order: the causes of the relations that have one, each once.
  std::vector<const std::string*> possible;
  for (const auto& mine : cause_of)
    for (const std::string* c : mine)
      if (std::none_of(possible.begin(), possible.end(), [&](const std::string* p) { return *p == *c; }))
        possible.push_back(c);
  if (possible.empty()) return text + (found.size() > 1 ? ": the evidence does not single out one cause." : ".");
  // Firm: every relation found has exactly that one cause.
  const bool one_cause = possible.size() == 1 && std::all_of(cause_of.begin(), cause_of.end(), [](const auto& mine) {
                           return mine.size() == 1;
                         });
  if (one_cause) return text + ": " + *possible.front() + ".";
  text += ": the evidence does not single out one cause; one possibility is " + *possible.front();
  if (possible.size() > 1) text += "; another, " + *possible[1];
  return text + ".";
}

}  // namespace ringlab
