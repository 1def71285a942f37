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

// The factors a mistake makes, by name: counting the ranks once too often or too seldom, twice
// over (multiplied by n where 1/n belongs: n² times the mean), a square root of it (a
// learning-rate rule), doubling, halving, a sign.
struct Named {
  double k;
  std::string name;
};
std::vector<Named> named_factors(int n) {
  std::vector<Named> list;
  if (n > 1) {
    const std::string ns = std::to_string(n);
    const std::string root = number(std::sqrt(double(n)));
    list.push_back({double(n), "n = " + ns});
    list.push_back({1.0 / n, "1/n = 1/" + ns});
    list.push_back({double(n) * n, "n² = " + std::to_string(n * n)});
    list.push_back({1.0 / (double(n) * n), "1/n² = 1/" + std::to_string(n * n)});
    list.push_back({std::sqrt(double(n)), "sqrt n = " + root});
    list.push_back({1.0 / std::sqrt(double(n)), "1/sqrt n = 1/" + root});
  }
  list.push_back({2, "2"});
  list.push_back({0.5, "1/2"});
  list.push_back({-1, "-1"});
  return list;
}

// The k with got == k * base for every piece of evidence, if there is one; `name` gets its name
// when it is one of named_factors(n). base() of each piece must be known (not NaN).
template <class Base>
bool common_factor(const std::vector<ValueEvidence>& ev, int n, const Near& near, Base base, double& k,
                   std::string& name) {
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
  auto candidates = named_factors(n);
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

}  // namespace

std::vector<RelationFound> relate(const std::vector<ValueEvidence>& evidence, int n) {
  std::vector<RelationFound> found;
  if (evidence.empty()) return found;
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
  const bool own = common_factor(evidence, n, near, [](const ValueEvidence& e) { return e.own; }, k, name);
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
  if (common_factor(evidence, n, near, [](const ValueEvidence& e) { return e.expected; }, k, name) && k != 0 &&
      k != 1)
    add(Relation::factor, k, name.empty() ? number(k, 4) : name);  // (measured: 4 digits)
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
    case Relation::elsewhere:
      return f.place >= 0 ? "equals the right value of " + place_name + " " + std::to_string(f.place)
                          : "equals the right value of another " + place_name;
  }
  return "";
}

std::string explain(const std::string& where, const std::vector<ValueEvidence>& evidence, int n,
                    const std::vector<CauseOf>& causes, const std::string& place_name,
                    const std::vector<long long>& index) {
  if (evidence.empty()) return "";
  const ValueEvidence& first = evidence.front();
  std::string text = where + ": " + plural(static_cast<long long>(evidence.size()), "wrong value") + ", e.g. ";
  if (!index.empty()) text.append("[").append(std::to_string(index.front())).append("] ");
  text += "expected " + number(first.expected) + " got " + number(first.got);
  const auto found = relate(evidence, n);
  const std::string every = evidence.size() == 1 ? "the wrong value " : "every wrong value ";
  if (found.empty()) return text + "; no simple relation to the right value holds for all of them.";
  text += "; " + every + describe(found.front(), place_name);
  for (std::size_t i = 1; i < found.size(); ++i) text += (i == 1 ? " (and " : ", and ") + describe(found[i], place_name);
  if (found.size() > 1) text += ")";
  // Each relation's cause, if `causes` names one; the first of them is the one said.
  std::vector<const CauseOf*> cause_of;
  for (const auto& f : found) {
    const CauseOf* cause = nullptr;
    for (const auto& c : causes)
      if (c.relation == f.relation && (std::isnan(c.k) || std::fabs(c.k - f.k) <= 1e-4 * std::fabs(c.k))) {
        cause = &c;
        break;
      }
    cause_of.push_back(cause);
  }
  const auto first_cause = std::find_if(cause_of.begin(), cause_of.end(), [](const CauseOf* c) { return c; });
  if (first_cause == cause_of.end())
    return text + (found.size() > 1 ? ": the evidence does not single out one cause." : ".");
  const std::string& cause = (*first_cause)->cause;
  const bool one_cause =
      std::all_of(cause_of.begin(), cause_of.end(), [&](const CauseOf* c) { return c && c->cause == cause; });
  if (!one_cause)
    return text + ": the evidence does not single out one cause; one possibility is " + cause + ".";
  return text + ": " + cause + ".";
}

}  // namespace ringlab
