// The cross-run symptoms (diagnose_runs.hpp): counted over every case of every run, then each
// rule fires only when its pattern holds for ALL the evidence, so a sentence never blames a
// cause that some run contradicts.
#include "ringlab/check/diagnose_runs.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>

#include "ringlab/base/plural.hpp"

namespace ringlab {

namespace {

bool wanted(const std::vector<std::string>& symptoms, const char* name) {
  return std::find(symptoms.begin(), symptoms.end(), name) != symptoms.end();
}

// a == e * k, to the rounding a float sum may add.
bool scaled_by(double e, double a, double k) {
  const double m = std::fabs(e * k);
  return e != 0 && std::fabs(a - e * k) <= 1e-4 * std::max(m, 1.0);
}

void append_line(const std::string& line) {
  const char* path = std::getenv("RINGLAB_CHECK_RESULTS");
  if (!path || !*path) return;
  const int fd = ::open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (fd < 0) return;  // the results are extra evidence; the check itself has already reported
  const ssize_t written = ::write(fd, line.data(), line.size());
  (void)written;
  ::close(fd);
}

// How a factor can change with the number of ranks n when the right value is the mean over n,
// and what each says was done instead. A function of n, not one number: a run alone cannot tell
// n from n/(n - 1) on 2 ranks, the runs together can.
struct CountFormula {
  const char* name;
  double (*k)(double n);
  const char* cause;
};
const CountFormula kCountFormulas[] = {
    {"n", [](double n) { return n; },
     "summed where the mean belongs — nothing divides by n (or the sum was taken twice before the division)"},
    {"n/(n - 1)", [](double n) { return n / (n - 1); },
     "divided by n - 1 where the mean divides by n (on 1 rank n - 1 = 0: a division by zero)"},
    {"(n - 1)/n", [](double n) { return (n - 1) / n; }, "divided by n where n - 1 belongs"},
    {"1/n", [](double n) { return 1 / n; }, "divided by n twice"},
    {"n²", [](double n) { return n * n; }, "multiplied by n where dividing by n belongs"},
    {"1/n²", [](double n) { return 1 / (n * n); }, "divided by n three times"},
    // 1 / n in int arithmetic: 1 for n = 1, 0 from 2 on (so every update is 0 there).
    {"1/n in integers", [](double n) { return n == 1 ? 1.0 : 0.0; },
     "1 / n computed in integers, which is 1 for n = 1 and 0 from 2 on — compute it in floating point (1.0f / n)"},
};

// factor-of-n: the one formula every run agrees with (the factor of a failing run, NaN where the
// formula is not finite, 1 where a run passed), shown on at least two numbers of ranks with a
// finite factor, not all 0 (or k = 0 beside a run that passed); "" when none or several fit, or a
// failing run recorded no factor. The mean is
// over n = np - `not_counted` (factor-of-workers: a server is not counted), named `unit`.
std::string factor_of_n(const std::vector<CheckRun>& runs, int not_counted, const char* unit) {
  std::vector<std::pair<int, double>> seen;  // (np, the first factor it recorded), failing runs
  for (const auto& run : runs) {
    if (run.rc == 0) continue;
    if (run.factors.empty()) return "";
    seen.emplace_back(run.np - not_counted, run.factors.front());
  }
  // Two numbers of ranks with a finite factor, or one with k = 0 beside a run that passed: a
  // measured factor may match one formula by chance, an exact 0 next to a right run does not.
  auto fits = [&](const std::function<double(double)>& formula) {
    int finite = 0, zero = 0, passed = 0;
    for (const auto& run : runs) {
      const double want = formula(run.np - not_counted);
      if (run.rc == 0) {
        if (!(std::isfinite(want) && std::fabs(want - 1) <= 1e-3)) return false;
        ++passed;
        continue;
      }
      const double k = run.factors.front();
      if (std::isnan(k)) {
        if (std::isfinite(want)) return false;
      } else if (!std::isfinite(want) || std::fabs(k - want) > 1e-3 * std::fabs(want)) {
        return false;
      } else {
        ++finite;
        zero += k == 0;
      }
    }
    // Zeros alone are no factor of n: grad overwritten with 0 gives them on every count of ranks.
    // Only a run that passed (1/n is 1 there) tells a 1 / n computed in integers from it.
    return (finite >= 2 && zero < finite) || (zero && passed);
  };
  const CountFormula* found = nullptr;
  for (const auto& f : kCountFormulas)
    if (fits(f.k)) {
      if (found) return "";  // two formulas agree with every run: nothing singled out
      found = &f;
    }
  std::string name = found ? found->name : "", cause = found ? found->cause : "";
  // None of them: a fixed divisor c where n belongs, k = n / c on every run (so the run on c
  // ranks passes). c comes from the first failing run with a positive factor.
  const auto first = std::find_if(seen.begin(), seen.end(), [](const auto& s) { return std::isfinite(s.second) && s.second > 0; });
  if (!found && first != seen.end()) {
    const auto [np, k] = *first;
    const double c = std::round(np / k);
    if (c >= 2 && std::fabs(np / k - c) <= 1e-3 * c && fits([c](double n) { return n / c; })) {
      const std::string fixed = std::to_string(static_cast<long long>(c));
      name = "n/" + fixed;
      cause = "divided by the fixed number " + fixed + " where the number of " + std::string(unit) + "s belongs (it passes on " +
              plural(static_cast<long long>(c), unit) + " only)" + (not_counted ? "" : " — divide by comm.size()");
    }
  }
  if (name.empty()) return "";
  std::sort(seen.begin(), seen.end());
  std::string values;
  for (const auto& [np, k] : seen) {
    char one[32];
    std::snprintf(one, sizeof one, "%.3g", k);
    values += (values.empty() ? "" : ", ") + (std::isnan(k) ? std::string("NaN or inf") : one) + " on " + plural(np, unit);
  }
  return std::string("the wrong values are k times the right ones, k = ") + values + ": k = " + name +
         " for every number of " + unit + "s n — " + cause + ".";
}

}  // namespace

std::vector<std::string> diagnose_runs(const std::vector<std::string>& symptoms,
                                       const std::vector<CheckRun>& runs) {
  for (const CheckRun& r : runs)
    if (!r.departures.empty()) return {};  // one coherent explanation: the departure's
  bool pass2 = false, fail2 = false, fail3 = false;
  long long wrong_cases = 0, even_wrong = 0, even_ok = 0;    // remainder
  long long big = 0, one_chunk = 0;                          // one-chunk
  long long root0_wrong = 0, root0_ok = 0, rootx_wrong = 0;  // root0
  long long pairs = 0, times_np = 0, over_np = 0;            // times-np
  bool beyond_2 = false;  // a wrong value seen on 3 or more ranks: n x is not also 2 x there
  std::string example;    // times-np: one wrong value, the evidence its sentence shows first
  std::string example_own;  // kept-own: the first run whose wrong values are all the rank's own input
  for (const auto& run : runs) {
    const int np = run.np;
    pass2 = pass2 || (np == 2 && run.rc == 0);
    fail2 = fail2 || (np == 2 && run.rc != 0);
    fail3 = fail3 || (np >= 3 && run.rc != 0);
    for (const auto& c : run.cases) {
      if (c.root >= 0 && np > 1) {
        if (c.root == 0) (c.wrong > 0 ? root0_wrong : root0_ok)++;
        else if (c.wrong > 0) ++rootx_wrong;
      }
      if (c.count < 0) continue;
      const bool even = c.count % np == 0;
      if (c.wrong > 0) {
        ++wrong_cases;
        if (even) ++even_wrong;
        if (c.count >= np && np > 1) {
          // Every rank right in its one chunk only: count * (np - 1) wrong elements over all
          // ranks, a little fewer when a partial sum happens to equal the total.
          ++big;
          const double all_but_one = static_cast<double>(c.count) * (np - 1);
          if (c.wrong <= all_but_one && c.wrong >= 0.9 * all_but_one) ++one_chunk;
        }
      } else if (even && c.count >= np && np > 1) {
        ++even_ok;
      }
    }
    // kept-own: a run whose every wrong value (each with the rank's own input known) is that input.
    long long kept = 0;
    std::string first_kept;
    for (std::size_t m = 0; m < run.mismatch_own.size() && m < run.mismatches.size(); ++m) {
      const double own = run.mismatch_own[m], got = run.mismatches[m].second;
      if (std::isnan(own) || std::fabs(got - own) > 1e-6 * std::fmax(1.0, std::fabs(own))) break;
      if (kept++ == 0) {
        char text[128];
        std::snprintf(text, sizeof text, "on %s every wrong value is that rank's own input there (e.g. expected %.6g got %.6g",
                      plural(np, "rank").c_str(), run.mismatches[m].first, got);
        first_kept = text;
      }
    }
    if (kept > 0 && kept == static_cast<long long>(run.mismatches.size()) && example_own.empty())
      example_own = first_kept;
    for (const auto& [e, a] : run.mismatches) {
      ++pairs;
      if (np > 1 && scaled_by(e, a, np)) ++times_np;
      if (np > 1 && scaled_by(e, a, 1.0 / np)) ++over_np;
      beyond_2 = beyond_2 || np >= 3;
      if (example.empty()) {
        char text[96];
        std::snprintf(text, sizeof text, "e.g. expected %.6g got %.6g on %d ranks", e, a, np);
        example = text;
      }
    }
  }

  std::vector<std::string> found;
  if (wanted(symptoms, "remainder") && wrong_cases && !even_wrong && even_ok)
    found.push_back(
        "wrong only where count is not a multiple of the number of ranks: the last chunks are short or "
        "missing — size every chunk with chunk_of / chunk(i), not count / n.");
  if (wanted(symptoms, "np2") && pass2 && fail3 && !fail2)
    found.push_back(
        "right on 2 ranks, wrong on 3 or more: on 2 ranks `next` and `prev` are the same rank, so a message "
        "sent the wrong way round still arrives — check you send to next (r+1) and receive from prev (r-1).");
  if (wanted(symptoms, "one-chunk") && big && one_chunk == big)
    found.push_back(
        "every rank holds exactly one finished chunk and nothing else: the allgather phase is missing (or "
        "sends the wrong chunks).");
  if (wanted(symptoms, "root0") && rootx_wrong && root0_ok && !root0_wrong)
    found.push_back(
        "right when the root is rank 0, wrong for every other root: number the ranks from the root (v = "
        "relative(rank, root, n)) and turn v back into a rank with absolute(v, root, n) before each send and "
        "receive.");
  // Evidence first (value_relation.hpp's rule): the factor and an example, then the cause, firmly
  // only when a run on 3 or more ranks rules out the other reading of a factor 2 (or 1/2).
  const std::string maybe = beyond_2 ? ": " : "; on 2 ranks that is also a factor 2, so one possibility is: ";
  if (wanted(symptoms, "times-np") && pairs && times_np == pairs)
    found.push_back("every wrong value is exactly (number of ranks) x the expected one (" + example + ")" + maybe +
                    "you summed where the result must be averaged — divide by the number of ranks" +
                    (beyond_2 ? "." : "; another, that one term was added twice."));
  if (wanted(symptoms, "times-np") && pairs && over_np == pairs)
    found.push_back("every wrong value is exactly 1/(number of ranks) of the expected one (" + example + ")" +
                    maybe + "you divided where the result must be summed, or divided twice — divide once, after the sum" +
                    (beyond_2 ? "." : "; another, that half the terms are missing."));
  if (wanted(symptoms, "kept-own") && !example_own.empty())
    // Two ways to end with one's own input, told apart by no value: the arrival was lost, or it
    // was this rank's input coming back (sent from memory that held what this rank had sent).
    found.push_back(example_own +
                    "): the rank ends with its own input — one possibility is that what it received never "
                    "reached this buffer (a receive into a scratch buffer that is never copied or added into "
                    "it); another, that what it received was its own input sent back (a send from memory that "
                    "holds what this rank sent, such as a scratch the reduce-scatter received into).");
  if (wanted(symptoms, "factor-of-n"))
    if (auto sentence = factor_of_n(runs, 0, "rank"); !sentence.empty()) found.push_back(sentence);
  if (wanted(symptoms, "factor-of-workers"))
    if (auto sentence = factor_of_n(runs, 1, "worker"); !sentence.empty()) found.push_back(sentence);
  return found;
}

void record_check_case(long long count, int root, long long wrong) {
  append_line("case\t" + std::to_string(count) + "\t" + std::to_string(root) + "\t" + std::to_string(wrong) +
              "\n");
}

void record_check_mismatch(double expected, double got, double own) {
  char line[128];
  if (std::isnan(own)) std::snprintf(line, sizeof line, "mismatch\t%.17g\t%.17g\n", expected, got);
  else std::snprintf(line, sizeof line, "mismatch\t%.17g\t%.17g\t%.17g\n", expected, got, own);
  append_line(line);
}

void record_check_departure(const std::string& diagnosis) {
  std::string one_line = diagnosis;
  std::replace(one_line.begin(), one_line.end(), '\n', ' ');
  append_line("departure\t" + one_line + "\n");
}

void record_check_factor(double k) {
  char line[64];
  std::snprintf(line, sizeof line, "factor\t%.17g\n", k);
  append_line(line);
}

void record_check_relation(const std::vector<RelationFound>& found) {
  for (const auto& f : found) {
    if (f.relation == Relation::factor) return record_check_factor(f.k);
    if (f.relation == Relation::zero) return record_check_factor(0);  // 0 times the right value
    if (f.relation == Relation::not_finite) return record_check_factor(NAN);
  }
}

CheckRun read_check_run(int np, int rc, const std::string& path) {
  CheckRun run;
  run.np = np;
  run.rc = rc;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    std::istringstream f(line);
    std::string kind;
    f >> kind;
    if (kind == "case") {
      CheckCase c;
      if (f >> c.count >> c.root >> c.wrong) run.cases.push_back(c);
    } else if (kind == "departure") {
      std::string text;
      std::getline(f >> std::ws, text);
      run.departures.push_back(text);
    } else if (kind == "factor") {
      std::string k;  // (operator>> into a double does not read "nan")
      if (f >> k) run.factors.push_back(std::strtod(k.c_str(), nullptr));  // (strtod reads "nan")
    } else if (kind == "mismatch") {
      double e = 0, a = 0, own = NAN;
      if (!(f >> e >> a)) continue;
      if (!(f >> own)) own = NAN;
      run.mismatches.emplace_back(e, a);
      run.mismatch_own.push_back(own);
    }
  }
  return run;
}

}  // namespace ringlab
