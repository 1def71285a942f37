// diagnose_training (diagnose_training.hpp): find the first wrong step, then look at how far the
// parameters moved in it.
#include "ringlab/check/diagnose_training.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <utility>

#include "ringlab/base/plural.hpp"
#include "ringlab/check/value_relation.hpp"

namespace ringlab {

namespace {

bool near(double a, double b, double rel) {
  return std::fabs(a - b) <= rel * std::fmax(std::fabs(a), std::fabs(b));
}

// Parameters agree to float rounding (the reference adds in the same order, so this is loose).
bool same(const std::vector<double>& a, const std::vector<double>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](double x, double y) {
    return std::fabs(x - y) <= 1e-5 * std::fmax(1.0, std::fabs(y));
  });
}

std::string number(double v) {
  char s[32];
  std::snprintf(s, sizeof s, "%.3g", v);
  return s;
}

using Parts = std::vector<std::vector<std::vector<double>>>;

// A move's evidence at parameter i of step k: how far it moved from `from`, how far it should
// have, and what each gradient adds to the right move (the last to arrive: `arrived`).
ValueEvidence move_at(const std::vector<double>& from, const std::vector<double>& expected,
                      const std::vector<double>& actual, const Parts& parts, std::size_t k, std::size_t i) {
  ValueEvidence e;
  e.expected = expected[i] - from[i];
  e.got = actual[i] - from[i];
  if (k < parts.size() && !parts[k].empty()) {
    for (const auto& part : parts[k]) e.terms.push_back(part[i]);
    e.arrived = e.terms.back();
  }
  return e;
}

bool wrong_at(const std::vector<double>& expected, const std::vector<double>& actual, std::size_t i) {
  return std::fabs(actual[i] - expected[i]) > 1e-5 * std::fmax(1.0, std::fabs(expected[i]));
}

// What each relation of a move to its gradients' parts means.
std::vector<CauseOf> part_causes(const std::string& carries) {
  return {{Relation::arrived,
           "only the last gradient to arrive counts: the step used it alone, not the sum of all of them — one "
           "possibility is the sum overwritten (=) where each gradient must be added to it (+=); others, the sum "
           "reset for each gradient, or the step reading the last received buffer instead of the sum"},
          {Relation::extra_term, carries},
          {Relation::step_before, "the step before's gradient or sum was used again"},
          {Relation::zero, "the update of this step is missing"}};
}

// Step k > 0 is the first wrong one, from right parameters: what did its move (after - before)
// have to do with the right move? The evidence decides how firm the cause is (value_relation.hpp):
// the right move plus the step before's again singles out a sum carried over; anything else,
// or nothing, leaves it one possibility among others (a wrong order of operations, too, gives a
// right first step and a wrong second one).
std::string later_step(const std::vector<double>& start, const std::vector<std::vector<double>>& expected,
                       const std::vector<std::vector<double>>& actual, std::size_t k, const Parts& parts) {
  const std::vector<double>& from = expected[k - 1];  // == actual[k - 1]: step k - 1 was right
  const std::vector<double>& before_that = k >= 2 ? expected[k - 2] : start;
  const std::size_t size = std::min({from.size(), before_that.size(), expected[k].size(), actual[k].size()});
  std::vector<ValueEvidence> evidence;
  std::vector<long long> index;
  for (std::size_t i = 0; i < size; ++i) {
    if (!wrong_at(expected[k], actual[k], i)) continue;
    ValueEvidence e = move_at(from, expected[k], actual[k], parts, k, i);
    e.before = from[i] - before_that[i];  // how far it moved in the step before
    e.terms.push_back(e.before);          // ... which a sum not reset adds again
    evidence.push_back(e);
    index.push_back(static_cast<long long>(i));
  }
  const std::string carries =
      "something carries over from one step to the next — reset what the step accumulates (a sum set to 0 "
      "at the start of every step) and reuse no buffer from the step before";
  const std::string where = "step 0 is right and step " + std::to_string(k) + " is wrong; how far it moved";
  // The parameters after the step are the right move alone, the parameters before dropped: the
  // update assigned the step (=, or a typo =-) where it must add it (-=). From 0 the two agree.
  const bool move_alone = !index.empty() && std::all_of(index.begin(), index.end(), [&](long long j) {
    const auto i = static_cast<std::size_t>(j);
    const double move = expected[k][i] - from[i];
    return std::fabs(actual[k][i] - move) <= 1e-5 * std::fmax(1.0, std::fabs(move));
  });
  if (move_alone) {
    const auto i = static_cast<std::size_t>(index.front());
    const bool from_zero = std::all_of(start.begin(), start.end(), [](double v) { return v == 0; });
    return "step 0 is right and step " + std::to_string(k) + " is wrong: " + plural(static_cast<long long>(index.size()), "parameter") +
           " after it, e.g. [" + std::to_string(i) + "] " + number(actual[k][i]) + " where " + number(expected[k][i]) +
           " belongs, are how far they should have moved, not the parameters plus that: the update assigned the "
           "step to the parameters (=, or =-) where it must add it to them (-=)" +
           (from_zero ? " — from parameters 0, as at the start, the two agree, which is why step 0 is right." : ".");
  }
  std::string text = explain(where, evidence, 1, part_causes(carries), "place", index);
  if (relate(evidence, 1).empty())  // nothing singles a cause out: the likeliest, as a possibility
    text += " One possibility is that " + carries + "; a wrong order of operations can do this too.";
  return text;
}

// Every parameter from [k] on (k > 0: the first wrong one) did not move at all, and every one
// before it is right: the update stopped at k (those whose right move is 0 are right either way).
// Said with where, and with k named when it is the number of gradients (a loop over the
// parameters bounded by the count of workers). "" otherwise.
std::string stopped_at(const std::vector<double>& start, const std::vector<double>& expected,
                       const std::vector<double>& actual, std::size_t size, long long first_wrong, int n,
                       const std::string& mean_of) {
  if (first_wrong <= 0) return "";
  const auto k = static_cast<std::size_t>(first_wrong);
  for (std::size_t i = k; i < size; ++i)
    if (actual[i] != start[i]) return "";
  bool moves = false;  // (some of the tail should have moved: else nothing is wrong there)
  for (std::size_t i = k; i < size && !moves; ++i) moves = wrong_at(expected, actual, i);
  if (!moves) return "";
  const std::string ks = std::to_string(k);
  return "step 0 is wrong; how far it moved: [0, " + ks + ") moved as they should, and not one from [" + ks +
         "] to the end (" + std::to_string(size - k) + " parameters) moved at all: the update stopped at [" + ks +
         "] — one possibility is a loop over the parameters bounded by " + ks +
         (k == static_cast<std::size_t>(n) ? " (the number of gradients: " + mean_of + ")" : "") +
         " where the parameters' size belongs.";
}

// Each gradient's own weight in a wrong move: got = sum_p w[p] * part[p] for every wrong parameter,
// w by least squares (a few workers: the normal equations, solved in place) and then checked on
// every value. None when it does not hold, or there are too few values to tell the weights apart.
std::optional<std::vector<double>> part_weights(const std::vector<ValueEvidence>& ev) {
  if (ev.empty()) return std::nullopt;
  const std::size_t p = ev.front().terms.size();
  if (p < 2 || p > 64 || ev.size() < 2 * p) return std::nullopt;  // (a few workers)
  std::vector<std::vector<double>> a(p, std::vector<double>(p + 1, 0.0));  // [A | b]
  double scale = 0;
  for (const auto& e : ev) {
    if (e.terms.size() != p) return std::nullopt;
    scale = std::fmax(scale, std::fabs(e.got));
    for (std::size_t i = 0; i < p; ++i) {
      for (std::size_t j = 0; j < p; ++j) a[i][j] += e.terms[i] * e.terms[j];
      a[i][p] += e.terms[i] * e.got;
    }
  }
  for (std::size_t c = 0; c < p; ++c) {  // Gauss-Jordan with partial pivoting
    std::size_t best = c;
    for (std::size_t r = c + 1; r < p; ++r)
      if (std::fabs(a[r][c]) > std::fabs(a[best][c])) best = r;
    std::swap(a[c], a[best]);
    if (!(std::fabs(a[c][c]) > 1e-12 * std::fabs(a[0][0]) + 1e-300)) return std::nullopt;  // parts not apart
    for (std::size_t r = 0; r < p; ++r) {
      if (r == c) continue;
      const double f = a[r][c] / a[c][c];
      for (std::size_t j = c; j <= p; ++j) a[r][j] -= f * a[c][j];
    }
  }
  std::vector<double> w(p);
  for (std::size_t i = 0; i < p; ++i) w[i] = a[i][p] / a[i][i];
  for (const auto& e : ev) {
    double fit = 0;
    for (std::size_t i = 0; i < p; ++i) fit += w[i] * e.terms[i];
    if (!(std::fabs(fit - e.got) <= 1e-4 * std::fabs(e.got) + 1e-6 * scale)) return std::nullopt;
  }
  return w;
}

// "1/4", "1", "0.3": a weight, as a fraction where it is one with a small denominator.
std::string weight_text(double w) {
  if (std::fabs(w) <= 1e-6) return "0";  // (the least squares leave a 0 as a rounding error)
  for (int d = 1; d <= 64; ++d)
    if (const double top = std::round(w * d); std::fabs(w * d - top) <= 1e-3 && top != 0)
      return d == 1 ? number(top) : number(top) + "/" + std::to_string(d);
  return number(w);
}

// The move as the gradients' parts with weights of their own (part_weights), said when they are
// not all 1: each gradient's weight in arrival order, and, when each counts the same number of
// times the one before it, that reading — a scaling inside the loop that adds them.
std::string weighted_parts(const std::vector<ValueEvidence>& ev, const std::vector<long long>& index) {
  const auto w = part_weights(ev);
  if (!w || std::all_of(w->begin(), w->end(), [](double x) { return std::fabs(x - 1) <= 1e-3; })) return "";
  std::string list;
  for (std::size_t i = 0; i < w->size(); ++i)
    list += (i == 0 ? "" : i + 1 == w->size() ? " and " : ", ") + weight_text((*w)[i]);
  std::string text = "step 0 is wrong; how far it moved: " + std::to_string(ev.size()) + " wrong values, e.g. [" +
                     std::to_string(index.front()) + "] expected " + number(ev.front().expected) + " got " +
                     number(ev.front().got) + "; every one is the gradients' shares summed with weights " + list +
                     " (in the order they arrive), where each counts once";
  const double ratio = (*w)[1] / (*w)[0];
  bool geometric = ratio > 1 + 1e-3 && std::fabs((*w).back() - 1) <= 1e-3;
  for (std::size_t i = 1; i < w->size() && geometric; ++i)
    geometric = std::fabs((*w)[i] / (*w)[i - 1] - ratio) <= 1e-3 * ratio;
  if (geometric)
    text += ": each gradient counts " + weight_text(ratio) + " times as much as the one before it — one " +
            "possibility is that the sum is scaled inside the loop that adds them (at every gradient), where the " +
            "mean divides once, after the last";
  // Every gradient once but the last, which never counted: each add took what the receive before it
  // had brought, so the last one's was never added.
  bool last_missing = std::fabs(w->back()) <= 1e-6;
  for (std::size_t i = 0; i + 1 < w->size() && last_missing; ++i) last_missing = std::fabs((*w)[i] - 1) <= 1e-3;
  if (last_missing)
    text += ": the last gradient to arrive never counted, every other one once — one possibility is the add "
            "before the receive in the loop (each add takes what the receive before it brought, so the last "
            "one's is never added)";
  return text + ".";
}

// Step 0 moved by no common factor of the right move: how each wrong move relates to the
// gradients' parts. A tail left unmoved is said as such (stopped_at); no parts, or no relation:
// no claim.
std::string first_step_parts(const std::vector<double>& start, const std::vector<double>& expected,
                             const std::vector<double>& actual, const Parts& parts, int n,
                             const std::string& mean_of) {
  std::vector<ValueEvidence> evidence;
  std::vector<long long> index;
  const std::size_t size = std::min({start.size(), expected.size(), actual.size()});
  for (std::size_t i = 0; i < size; ++i)
    if (wrong_at(expected, actual, i)) {
      evidence.push_back(move_at(start, expected, actual, parts, 0, i));
      index.push_back(static_cast<long long>(i));
    }
  if (const std::string stopped = stopped_at(start, expected, actual, size, index.empty() ? -1 : index.front(), n, mean_of);
      !stopped.empty())
    return stopped;
  if (parts.empty()) return "";
  if (relate(evidence, 1).empty()) return weighted_parts(evidence, index);
  return explain("step 0 is wrong; how far it moved", evidence, 1,
                 part_causes("one gradient is added twice"), "place", index);
}

}  // namespace

std::string diagnose_training(const std::vector<double>& start,
                              const std::vector<std::vector<double>>& expected,
                              const std::vector<std::vector<double>>& actual, int n,
                              const std::string& mean_of, const Parts& parts, double* step0_factor) {
  const std::size_t steps = std::min(expected.size(), actual.size());
  std::size_t k = 0;
  while (k < steps && same(actual[k], expected[k])) ++k;
  if (k == steps) return "";
  for (std::size_t i = 0; i < actual[k].size(); ++i)
    if (!std::isfinite(actual[k][i]))
      return "the parameters became NaN or inf in step " + std::to_string(k) + " (the first at [" +
             std::to_string(i) + "]): one possibility is a division by zero in the update.";
  if (k > 0) return later_step(start, expected, actual, k, parts);

  // Step 0: how far did each parameter move, against how far it should have?
  const std::size_t size = std::min({start.size(), expected[0].size(), actual[0].size()});
  double largest = 0;
  bool moved = false;
  for (std::size_t i = 0; i < size; ++i) {
    largest = std::fmax(largest, std::fabs(expected[0][i] - start[i]));
    moved = moved || actual[0][i] != start[i];
  }
  // Not moved: the update is missing, or what it added was 0. Parameters that start at 0 are such a
  // 0: used where the gradient belongs (pushed or summed in its place), they move nothing.
  const bool start_zero = std::all_of(start.begin(), start.end(), [](double v) { return v == 0; });
  if (!moved && step0_factor) *step0_factor = 0;
  if (!moved)
    return std::string("the parameters did not change in step 0, though they should have: nothing was added to "
                       "them — one possibility is that the update is missing; another, that what it added was 0 "
                       "where the gradients are not") +
           (start_zero ? " (the parameters start at 0: parameters sent or used where the gradient belongs add 0)."
                       : ".");
  // Every wrong parameter where the right move puts one that starts at 0: the old values are gone,
  // the update assigned its step (=, where -= belongs) or the parameters were set to 0 before it;
  // step 0 does not tell the two apart. Only parameters that do not start at 0 can show it.
  if (!start_zero) {
    std::size_t first = size;
    bool from_zero = true;
    for (std::size_t i = 0; i < size && from_zero; ++i) {
      if (!wrong_at(expected[0], actual[0], i)) continue;
      if (first == size) first = i;
      const double from_0 = expected[0][i] - start[i];  // where the right move puts a parameter at 0
      from_zero = std::fabs(actual[0][i] - from_0) <= 1e-5 * std::fmax(1.0, std::fabs(from_0));
    }
    if (from_zero && first < size)
      return "step 0 is wrong: every wrong parameter is where the right move puts one that starts at 0 (e.g. [" +
             std::to_string(first) + "] started at " + number(start[first]) + " and should be at " +
             number(expected[0][first]) + "; it is at " + number(actual[0][first]) + ", that less " +
             number(start[first]) + "): the parameters' old values are gone — one possibility is that the update "
             "assigns the step (=) where it must subtract it from the parameters (-=); another, that the "
             "parameters were set to 0 before the update (a fill of the parameters where a scratch buffer, such as "
             "the sum, is meant).";
  }
  double factor = NAN;
  std::string eg;  // the evidence: the parameter that should move the most, how far it did
  for (std::size_t i = 0; i < size && eg.empty(); ++i)
    if (std::fabs(expected[0][i] - start[i]) == largest)
      eg = " (e.g. [" + std::to_string(i) + "] moved " + number(actual[0][i] - start[i]) + ", not " +
           number(expected[0][i] - start[i]) + ")";
  // The factor by least squares over every move (a small move of a large float parameter is known
  // only to the parameter's last bits: one move alone may be off by far more than 1e-3); then every
  // move within 1e-3 of it, or within the rounding of its parameter (a few ulps).
  double got_want = 0, want_want = 0;
  for (std::size_t i = 0; i < size; ++i) {
    const double want = expected[0][i] - start[i];
    got_want += (actual[0][i] - start[i]) * want;
    want_want += want * want;
  }
  if (want_want > 0) factor = got_want / want_want;
  for (std::size_t i = 0; i < size; ++i) {
    const double want = expected[0][i] - start[i], got = actual[0][i] - start[i];
    if (std::fabs(want) <= 1e-3 * largest) continue;  // ratios of tiny moves are noise
    const double slack = 1e-3 * std::fabs(factor * want) + 4 * 6e-8 * (std::fabs(start[i]) + std::fabs(actual[0][i]));
    if (!(std::fabs(got - factor * want) <= slack))
      return first_step_parts(start, expected[0], actual[0], parts, n, mean_of);
  }
  if (std::isnan(factor)) return "";
  if (step0_factor) *step0_factor = factor;
  if (near(factor, -1, 1e-3))
    return "every parameter moved the wrong way in step 0" + eg + ": the update's sign is turned round.";
  // A mean over n gradients divided by m instead: m = 1 (the sum), n + 1 (the number of ranks where
  // one rank is not a worker), n - 1, or n * n (divided twice).
  for (int m : {1, n + 1, n - 1, n * n}) {
    if (m < 1 || m == n || !near(factor, static_cast<double>(n) / m, 1e-3)) continue;
    const std::string grads = std::to_string(n) + (n == 1 ? " gradient" : " gradients");
    // n = 2 times is also 2 times: a step taken twice moves as far, so then the factor does not
    // single out the sum, and the sentence says so.
    if (m == 1 && n == 2)
      return "every parameter moved n = 2 times as far as it should in step 0" + eg +
             ": with n = 2 that is also twice, so the evidence does not single out one cause; one possibility "
             "is that the SUM of the gradients was used where their mean belongs — divide the sum by " +
             mean_of + "; another, that the step was taken twice.";
    if (m == 1)
      return "every parameter moved n = " + std::to_string(n) +
             " times as far as it should in step 0" + eg + ": the SUM of the gradients was used where their mean "
             "belongs — divide the sum by " +
             mean_of + ".";
    if (m == n * n)
      return "every parameter moved 1/" + std::to_string(n) +
             " as far as it should in step 0" + eg + ": the sum was divided by " + std::to_string(n) +
             " twice — divide once, by " + mean_of + ".";
    return "every parameter moved " + std::to_string(n) + "/" + std::to_string(m) +
           " as far as it should in step 0" + eg + ": the sum of " + grads + " was divided by " + std::to_string(m) +
           " — the mean divides by " + mean_of + " = " + std::to_string(n) + ".";
  }
  // n / size: the sum divided by the number of parameters (the mean over elements, not gradients).
  if (size > 1 && near(factor, static_cast<double>(n) / static_cast<double>(size), 1e-3))
    return "every parameter moved " + number(factor) + " = n / size = " + std::to_string(n) + " / " +
           std::to_string(size) + " times as far as it should in step 0" + eg + ": the sum of the " +
           std::to_string(n) + (n == 1 ? " gradient" : " gradients") + " was divided by the number of parameters (" +
           std::to_string(size) + ", a mean over the elements) — the mean divides by " + mean_of + ".";
  return "every parameter moved " + number(factor) +
         " times as far as it should in step 0" + eg +
         ": no count of ranks or workers explains that factor; one possibility is a wrong learning rate or "
         "gradient scale.";
}

}  // namespace ringlab
