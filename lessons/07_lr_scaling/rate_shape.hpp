// The SHAPE of a learner's learning-rate schedule, for lesson 07's check (check.hpp). scaled_lr
// and learning_rate are pure functions, so the check can call them with any arguments and say
// how they behave, in words relative to the right schedule, then name the part that differs:
//   the scaling rule   how scaled_lr grows with base_lr and n (the exponent of each, measured by
//                      doubling it): sqrt is base_lr^1 * n^0.5, a constant factor 1
//   the warm-up        where the rate starts, whether it climbs in a straight line (or stays
//                      flat, or climbs in stairs), which line, at which step it becomes the target
//   NaN                at which warm-up lengths (a division by zero where the length is 0 or 1)
// Each sentence gives its evidence first and a cause only where the evidence singles it out
// ("one possibility is" otherwise). Tested in tests/lesson07/test_check.cpp.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "lr_schedule.hpp"

namespace lesson07 {

using ScaledLr = std::function<double(double base_lr, int world_size, Scaling s)>;
using LearningRate =
    std::function<double(double base_lr, int world_size, Scaling s, long long step, long long warmup_steps)>;

inline std::string number(double v) {
  char s[32];
  std::snprintf(s, sizeof s, "%.4g", v);
  return s;
}

inline std::string listed(const std::vector<double>& values) {  // "0.02, 0.04"
  std::string text;
  for (double v : values) text.append(text.empty() ? "" : ", ").append(number(v));
  return text;
}

// Equal up to what a float schedule may differ by (the table's own tolerance is float's too).
inline bool close(double a, double b) {
  return std::isfinite(a) && std::isfinite(b) &&
         std::fabs(a - b) <= 1e-5 * std::fmax(std::fabs(a), std::fabs(b));
}

// ---- the scaling rule: rate = c * base_lr^e_base * n^e_n -----------------------------------
// Each exponent is measured by doubling its input (log2 of the ratio), then the law is tried at
// every point of a grid: `fits` only when all of them agree.
struct PowerLaw {
  bool fits = false;
  double c = 0, e_base = 0, e_n = 0;
};

inline PowerLaw power_law(const std::function<double(double, int)>& f) {
  auto snap = [](double e) {  // 0.5000001 is 0.5: an exponent a formula writes is a simple one
    return std::fabs(e * 2 - std::round(e * 2)) < 1e-4 ? std::round(e * 2) / 2 : e;
  };
  PowerLaw p;
  p.e_base = snap(std::log2(f(0.02, 1) / f(0.01, 1)));
  p.e_n = snap(std::log2(f(0.01, 2) / f(0.01, 1)));
  p.c = f(0.01, 1) / std::pow(0.01, p.e_base);
  if (!std::isfinite(p.e_base) || !std::isfinite(p.e_n) || !std::isfinite(p.c)) return p;
  if (close(p.c, 1)) p.c = 1;
  for (double b : {0.01, 0.02, 0.04, 0.3})
    for (int n : {1, 2, 3, 4, 8})
      if (!close(f(b, n), p.c * std::pow(b, p.e_base) * std::pow(double(n), p.e_n))) return p;
  p.fits = true;
  return p;
}

inline double exponent_of(Scaling s) { return s == Scaling::none ? 0 : s == Scaling::linear ? 1 : 0.5; }

// "base_lr^0.5 * n^0.5", "2 * base_lr * n", "0.02".
inline std::string formula(double c, double e_base, double e_n) {
  std::string text = c != 1 || (e_base == 0 && e_n == 0) ? number(c) : "";
  auto factor = [&](const char* name, double e) {
    if (e == 0) return;
    text += text.empty() ? name : std::string(" * ") + name;
    if (e != 1) text += "^" + number(e);
  };
  factor("base_lr", e_base);
  factor("n", e_n);
  return text;
}

// How `what` (a rate as a function of base_lr and n) differs from rule s, evidence first; "" when
// it follows the rule.
inline std::string scaling_diagnosis(const std::string& what, const std::function<double(double, int)>& f,
                                     Scaling s) {
  const double r = exponent_of(s);
  const std::string rule = std::string("the ") + scaling_name(s) + " rule is " + formula(1, 1, r);
  const PowerLaw p = power_law(f);
  if (p.fits && p.c == 1 && p.e_base == 1 && p.e_n == r) return "";
  if (!p.fits) {  // the values themselves, at base_lr 0.02
    std::vector<double> got, right;
    // base_lr times the rule's factor of n made a whole number: rounded down (an int), to the nearest
    // (std::round), or up (std::ceil)
    bool rounded_down = true, rounded = true, rounded_up = true;
    bool less = true, more = true;  // the rule at n - 1, at n + 1: one rank counted too few, too many
    bool zero = true;               // 0 at every n: base_lr itself counted as 0
    for (int n : {1, 2, 3, 4, 8}) {
      got.push_back(f(0.02, n));
      zero = zero && got.back() == 0;
      right.push_back(0.02 * std::pow(double(n), r));
      rounded_down = rounded_down && close(got.back(), 0.02 * std::floor(std::pow(double(n), r) + 1e-9));
      rounded = rounded && close(got.back(), 0.02 * std::round(std::pow(double(n), r)));
      rounded_up = rounded_up && close(got.back(), 0.02 * std::ceil(std::pow(double(n), r) - 1e-9));
      less = less && close(got.back(), 0.02 * std::pow(double(n - 1), r));
      more = more && close(got.back(), 0.02 * std::pow(double(n + 1), r));
    }
    const std::string shifted = less || more ? std::string(less ? "n - 1" : "n + 1") : "";
    return what + " is not a power law of base_lr and n: at base_lr 0.02 and n = 1, 2, 3, 4, 8 it is " +
           listed(got) + "; " + rule + ": " + listed(right) +
           (zero ? ": 0 at every n, as if base_lr were 0 — one possibility is base_lr converted to a whole number "
                   "(an int holds 0.02 as 0) before it is scaled."
            : rounded_down
                ? ": every value is base_lr times the rule's factor rounded down to a whole number; one "
                  "possibility is the factor converted to an integer."
            : rounded || rounded_up
                ? std::string(": every value is base_lr times the rule's factor rounded ") +
                      (rounded ? "to the nearest whole number (std::round)" : "up to a whole number (std::ceil)") +
                      ", where the factor itself belongs."
            : !shifted.empty() && r == 1
                // base_lr * (n -/+ 1) is also base_lr * n -/+ base_lr: a count off by one, or
                // base_lr taken off (the increase alone) or added once more; the values do not say which.
                ? ": every value is the linear rule at " + shifted + " (base_lr * n with " + shifted +
                      " for n), which is also base_lr * n " + (less ? "- base_lr" : "+ base_lr") +
                      " — one possibility is that the ranks were counted one " + (less ? "too few" : "too many") +
                      " (n is comm.size(), every rank a worker); another, that base_lr is " +
                      (less ? "taken off: the increase over base_lr, where the rule returns the scaled rate itself."
                            : "added to the scaled rate once more.")
            : !shifted.empty()
                ? ": every value is the " + std::string(scaling_name(s)) + " rule at " + shifted + " (" +
                      formula(1, 1, r) + " with " + shifted + " for n): the ranks counted one " +
                      (less ? "too few" : "too many") + " — n is comm.size(), every rank a worker."
                : ".");
  }
  std::string text = what + " grows as " + formula(p.c, p.e_base, p.e_n) + "; " + rule + ": ";
  std::vector<std::string> causes;
  const bool product = p.e_base == p.e_n && p.e_n == r && r != 1;
  if (product)
    causes.push_back((r == 0.5 ? "the square root" : "the power " + number(r)) +
                     " is taken of the product base_lr * n, not of n alone");
  else if (p.e_base != 1)
    causes.push_back(
        "base_lr enters as " + formula(1, p.e_base, 0) +
        " where it belongs once, as a factor (one possibility is the scaling applied to base_lr too)");
  if (!product && p.e_n != r) {
    auto power_of_n = [](double e) { return e == 0 ? std::string("n^0 (n unused)") : formula(1, 0, e); };
    std::string other;  // the rule whose exponent of n it is
    for (Scaling o : {Scaling::none, Scaling::linear, Scaling::sqrt})
      if (o != s && exponent_of(o) == p.e_n) other = scaling_name(o);
    causes.push_back((other.empty() ? "n enters as " : "the " + other + " rule's ") + power_of_n(p.e_n) +
                     " where " + scaling_name(s) + "'s " + power_of_n(r) + " belongs" +
                     // A fractional power come out as n^0: the exponent itself was cut to a whole number.
                     (p.e_n == 0 && r != std::floor(r)
                          ? " (one possibility is the exponent computed in integers: 1 / 2 is 0 there)"
                          : ""));
  }
  if (p.c != 1) causes.push_back("every rate is " + number(p.c) + " times the rule's (a constant factor)");
  for (std::size_t i = 0; i < causes.size(); ++i) text.append(i ? "; and " : "").append(causes[i]);
  return text + ".";
}

// One line per rule that differs; two rules that hold each other's formula are one line.
inline std::vector<std::string> scaling_diagnoses(const ScaledLr& scaled) {
  std::vector<std::string> lines;
  std::vector<PowerLaw> laws;
  const Scaling rules[] = {Scaling::none, Scaling::linear, Scaling::sqrt};
  for (Scaling s : rules) laws.push_back(power_law([&](double b, int n) { return scaled(b, n, s); }));
  auto is_rule = [&](int i, int j) {  // rule i's law is rule j's formula
    return laws[i].fits && laws[i].c == 1 && laws[i].e_base == 1 && laws[i].e_n == exponent_of(rules[j]);
  };
  std::vector<bool> said(3, false);
  for (int i = 0; i < 3; ++i)
    for (int j = i + 1; j < 3; ++j)
      if (is_rule(i, j) && is_rule(j, i)) {
        lines.push_back(std::string("scaled_lr's ") + scaling_name(rules[i]) + " and " +
                        scaling_name(rules[j]) + " rules are swapped: " + scaling_name(rules[i]) +
                        " grows as " + formula(1, 1, exponent_of(rules[j])) + ", " + scaling_name(rules[j]) +
                        " as " + formula(1, 1, exponent_of(rules[i])) + ".");
        said[i] = said[j] = true;
      }
  for (int i = 0; i < 3; ++i) {
    if (said[i]) continue;
    const std::string line = scaling_diagnosis(
        std::string("scaled_lr(base_lr, n, ") + scaling_name(rules[i]) + ")",
        [&](double b, int n) { return scaled(b, n, rules[i]); }, rules[i]);
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

// ---- the warm-up ---------------------------------------------------------------------------
// The learner's rates over steps 0 .. warmup_steps + 5 of one case, in words relative to the
// right ones: base_lr at step 0, a straight line, the target from step warmup_steps on. The
// target is the learner's own scaled_lr (a wrong rule is scaling_diagnoses' to describe).
// `numbers`: with this case's values; without them, the words are the same for every case with
// the same shape (how the cases are grouped).
// Rates r[0 .. end) flat at r[0] up to step m - 1 (m >= 2), then a straight line of at least
// three points from step m on (the one step where it leaves r[0] may lie on either): m, else 0.
inline long long held_until(const std::vector<double>& r, long long end) {
  long long m = 1;
  while (m < end && close(r[static_cast<std::size_t>(m)], r[0])) ++m;
  if (m < 2 || end - m < 3) return 0;
  auto at = [&](long long k) { return r[static_cast<std::size_t>(k)]; };
  const double d = at(m + 1) - at(m);
  for (long long k = m + 2; k < end; ++k)
    if (std::fabs((at(k) - at(k - 1)) - d) > 1e-5 * std::fabs(at(k))) return 0;
  return d > 0 ? m : 0;
}

struct WarmupShape {
  bool right = true;
  std::string evidence;
  std::string cause;        // what the evidence singles out ("" when nothing)
  std::string possibility;  // a likely slip behind it, not singled out ("" when none)
};

inline WarmupShape warmup_shape(const LearningRate& lr, double target, double base, int n, Scaling s,
                                long long warmup, bool numbers) {
  const long long last = warmup + 5;
  const double climb = (target - base) / double(warmup);  // one step of the right line
  auto right_rate = [&](long long k) { return k >= warmup ? target : base + climb * double(k); };
  std::vector<double> r;
  WarmupShape shape;
  for (long long k = 0; k <= last; ++k) {
    r.push_back(lr(base, n, s, k, warmup));
    if (!close(r.back(), right_rate(k))) shape.right = false;
  }
  if (shape.right) return shape;
  auto value = [&](double v) {  // "base_lr (0.02)"; a value with no name: "another value" in the words alone
    if (std::fabs(v) < 1e-12) return std::string("0");
    const std::string name = close(v, base)            ? "base_lr"
                             : close(v, target)        ? "the target"
                             : close(v, base + climb)  ? "base_lr + one step of the climb"
                             : close(v, base + target) ? "base_lr + the target"
                             : close(v, target - base) ? "target - base_lr"
                                                       : "";
    if (name.empty()) return numbers ? number(v) : std::string("another value");
    return numbers ? name + " (" + number(v) + ")" : name;
  };
  auto at_step = [&](double k) {  // "step warmup_steps - 1 (9)"
    const double d = std::round(k - double(warmup));
    if (std::fabs(k - double(warmup) - d) > 1e-6 || std::fabs(d) > 3)
      return numbers ? "step " + number(k) : "another step";
    const std::string name =
        d == 0 ? "warmup_steps" : "warmup_steps " + std::string(d > 0 ? "+ " : "- ") + number(std::fabs(d));
    return "step " + name + (numbers ? " (" + number(k) + ")" : "");
  };
  std::string& text = shape.evidence;
  for (long long k = 0; k <= last; ++k)
    if (!std::isfinite(r[k])) {
      text = "the rate is NaN or inf at " + at_step(double(k));
      // Infinite at step 0 only, and base_lr + (target - base_lr) * warmup_steps / k at each warm-up
      // step k after it: the progress turned upside down (warmup_steps / step).
      bool inverted = k == 0 && warmup >= 2 && !close(target, base);
      for (long long j = 1; inverted && j < warmup; ++j)
        inverted = close(r[j], base + (target - base) * double(warmup) / double(j));
      if (inverted) {
        text += ", and at every warm-up step k after it base_lr + (target - base_lr) * warmup_steps / k, above "
                "the target";
        shape.cause = "the progress is warmup_steps / step, upside down — step / warmup_steps climbs from 0 at "
                      "step 0 to 1 at warmup_steps";
        return shape;
      }
      shape.possibility = "a division by zero";
      return shape;
    }
  long long reach = last + 1;  // the first step from which the rate is the target, to the end
  while (reach > 0 && close(r[reach - 1], target)) --reach;
  const long long end = std::min(reach, warmup);  // the climb: steps 0 .. end - 1
  if (end == 0) {
    text = "the rate is the target from step 0";
    shape.cause = "the warm-up is skipped";
    return shape;
  }
  text = "it starts at " + value(r[0]) + (close(r[0], base) ? "" : ", not base_lr");
  bool flat = true, line = end >= 3, stairs = false, rising = true;
  for (long long k = 1; k < end; ++k) {
    flat = flat && close(r[k], r[0]);
    line = line && std::fabs((r[k] - r[k - 1]) - (r[1] - r[0])) <= 1e-5 * std::fabs(target);
    stairs = stairs || close(r[k], r[k - 1]);
    rising = rising && r[k] >= r[k - 1] - 1e-12;
  }
  const double slope = end >= 2 ? r[1] - r[0] : 0;
  const bool right_slope = std::fabs(slope - climb) <= 1e-5 * std::fabs(target);
  const double shift = std::round((r[0] - base) / climb);  // steps early (> 0) or late, on the right slope
  if (flat && end > 1) {
    text += ", stays there until " + at_step(double(end));
    // (Only when the target comes after it: a rate that is base_lr to the end says the target is
    // wrong, and a flat climb to a target equal to base_lr is no evidence about the progress.)
    if (close(r[0], base) && end == warmup && reach <= last) {
      shape.cause = "the progress stays 0 during the warm-up";
      shape.possibility =
          "an integer division (step / warmup_steps in integers is 0 until the end of the warm-up)";
    }
  } else if (line && right_slope && close(r[0], base)) {
    text += ", climbs in the right straight line";
  } else if (line && right_slope && shift != 0 && std::fabs(shift) <= 3 &&
             close(r[0], base + shift * climb)) {
    text += ", climbs with the right slope: the right line " + number(std::fabs(shift)) +
            (std::fabs(shift) == 1 ? " step " : " steps ") + (shift > 0 ? "early" : "late");
    shape.cause = "the progress counts from step " + std::string(shift > 0 ? "+ " : "- ") +
                  number(std::fabs(shift)) + " where step belongs";
  } else if (line) {
    const double at_end = r[0] + slope * double(warmup), meets = (target - r[0]) / slope;
    const double over = std::round(meets - double(warmup));  // steps late (> 0) or early
    text += ", climbs in a straight line towards " + value(at_end) + " at " + at_step(double(warmup));
    // A climb from base_lr that would meet the target at a whole multiple k of warmup_steps (k > 1,
    // beyond a few steps late): its slope is 1/k of the right one; k = n is said as n.
    const double times = meets / double(warmup);
    const long long k = std::llround(times);
    const bool multiple = close(r[0], base) && over > 3 && k >= 2 && std::fabs(times - double(k)) < 1e-6;
    const std::string k_name = k == n ? "n" : std::to_string(k);
    // ... or at warmup_steps / k (k > 1, beyond a few steps early): its slope is k times the right one.
    const double over_times = double(warmup) / meets;
    const long long f = std::llround(over_times);
    const bool steeper = close(r[0], base) && over < -3 && f >= 2 && std::fabs(over_times - double(f)) < 1e-6;
    const std::string f_name = f == n ? "n" : std::to_string(f);
    if (close(meets, double(warmup) + over) && over > 0 &&
        over <= 3)  // (earlier: it is the target from there)
      text += " (it would meet the target at " + at_step(meets) + ")";
    if (multiple)
      text += " (it would meet the target at step " + k_name + " × warmup_steps" +
              (numbers ? " (" + number(meets) + ")" : "") + ": its slope is 1/" + k_name + " of the right one)";
    if (steeper)
      text += " (it would meet the target at warmup_steps / " + f_name + (numbers ? " (step " + number(meets) + ")" : "") +
              ": its slope is " + f_name + " times the right one)";
    if (multiple)
      shape.possibility = k == n ? "the warm-up's length multiplied by the number of ranks n, where warmup_steps "
                                   "alone belongs"
                                 : "the progress divided by " + k_name + " once more";
    else if (steeper)
      shape.possibility = f == n ? "the progress multiplied by the number of ranks n (the steps of all ranks "
                                   "counted), where step / warmup_steps alone belongs"
                                 : "the progress multiplied by " + f_name;
    else if (close(r[0], base) && close(meets, double(warmup) + over) && over != 0 && std::fabs(over) <= 3)
      shape.cause = "the climb is spread over warmup_steps " + std::string(over > 0 ? "+ " : "- ") +
                    number(std::fabs(over)) + " steps: the progress divides by that";
    else if (std::fabs(r[0]) < 1e-12 && close(at_end, target))
      shape.cause =
          "the rate is target * progress: the climb must start at base_lr, base_lr + (target - base_lr) * "
          "progress";
    else if (std::fabs(r[0]) < 1e-12 && close(at_end, base))
      shape.possibility =
          "base_lr * progress, climbing from 0 to base_lr, where base_lr + (target - base_lr) * progress "
          "belongs";
    else if (close(r[0], target) && close(at_end, base))
      shape.cause = "base_lr and the target are swapped: the line runs from the target down to base_lr";
  } else if (const long long m = held_until(r, end); m > 0) {
    // Flat at r[0], then a straight line: a line from elsewhere held up at r[0] (a max, a clamp).
    const double d = r[m + 1] - r[m], from = r[m] - double(m) * d, at_end = r[m] + double(warmup - m) * d;
    text += ", stays there until " + at_step(double(m)) + ", then climbs in a straight line towards " + value(at_end) +
            " at " + at_step(double(warmup)) + ": a line that, drawn back, starts at " + value(from) +
            " at step 0, held up at " + value(r[0]) + " until it passes it";
    if (std::fabs(from) < 1e-12 && close(at_end, target) && close(r[0], base))
      shape.cause = "the rate is the larger of base_lr and target * progress (a max with base_lr): a climb from 0 "
                    "held up at base_lr, where the climb must start at base_lr";
    else
      shape.possibility = "a max (or a clamp) with " + value(r[0]) + " around a line that starts elsewhere";
  } else if (stairs && rising) {
    long long levels = 1;
    for (long long k = 1; k < end; ++k) levels += close(r[k], r[k - 1]) ? 0 : 1;
    text += ", climbs in a staircase of " + std::to_string(levels) + " levels";
    shape.cause = "the progress moves only every few steps";
    shape.possibility = "an integer division in it, rounding it down";
  } else {
    text += ", does not climb in a straight line";
    if (numbers) {  // the first steps, against the right line's
      std::vector<double> got, right;
      for (long long k = 0; k < std::min<long long>(end, 5); ++k)
        got.push_back(r[k]), right.push_back(right_rate(k));
      text += " (from step 0: " + listed(got) + "; the right line: " + listed(right) + ")";
    }
  }
  if (reach > last) {
    text += "; from " + at_step(double(warmup)) + " on it is " + value(r[last]) + ", not the target";
    if (flat && close(r[0], base) && close(r[last], base))
      shape.possibility =
          "a target equal to base_lr: computed for another world size and kept (a static, or a variable outside "
          "the function, set by an earlier call), or computed without the scaling rule";
  } else if (reach == warmup && line && !flat && !close(r[warmup - 1] + slope, target)) {
    text += ", where it jumps to the target";
  } else if (reach != warmup) {
    text += "; it is the target from " + at_step(double(reach)) + ", not from step warmup_steps";
    if (line && right_slope && close(r[0], base))
      shape.cause = "the test that ends the warm-up is off by " + number(std::fabs(double(reach - warmup))) +
                    (reach < warmup ? " (it ends too early)" : " (it ends too late)");
  }
  return shape;
}

// The warm-up's diagnosis over the given cases (world size, rule) at one warm-up length: the
// shape most wrong warm-ups share, told at the one of them with the most wrong rates (`wrong`).
// "" when every warm-up is right.
struct Case {
  int n;
  Scaling s;
  long long wrong;
};

inline std::string warmup_diagnosis(const LearningRate& lr, const ScaledLr& scaled,
                                    const std::vector<Case>& cases, long long warmup) {
  const double base = 0.02;
  std::vector<std::pair<std::string, const Case*>> wrong;  // the shape in words alone, and its case
  // Cases whose target differs from base_lr first: there "base_lr" and "the target" are told apart.
  for (bool climbs : {true, false}) {
    for (const auto& c : cases) {
      const double target = scaled(base, c.n, c.s);
      if (close(target, base) == climbs) continue;
      const WarmupShape shape = warmup_shape(lr, target, base, c.n, c.s, warmup, false);
      if (!shape.right) wrong.push_back({shape.evidence + shape.cause + shape.possibility, &c});
    }
    if (!wrong.empty()) break;
  }
  if (wrong.empty()) return "";
  std::size_t most = 0;  // the shape most cases share
  const Case* worst = nullptr;
  for (const auto& [key, c] : wrong) {
    const auto same = static_cast<std::size_t>(
        std::count_if(wrong.begin(), wrong.end(), [&](const auto& w) { return w.first == key; }));
    if (same > most || (same == most && c->wrong > worst->wrong)) most = same, worst = c;
  }
  const double target = scaled(base, worst->n, worst->s);
  const WarmupShape shape = warmup_shape(lr, target, base, worst->n, worst->s, warmup, true);
  std::string text = "the warm-up at world " + std::to_string(worst->n) + " " + scaling_name(worst->s) +
                     ", warmup_steps " + std::to_string(warmup) + " (base_lr " + number(base) + ", target " +
                     number(target) + "; the same shape in " +
                     (most == wrong.size() ? "all " : std::to_string(most) + " of ") +
                     std::to_string(wrong.size()) + " wrong warm-ups): " + shape.evidence;
  if (!shape.cause.empty()) text += ": " + shape.cause;
  if (!shape.possibility.empty())
    text += (shape.cause.empty() ? ": " : "; ") + std::string("one possibility is ") + shape.possibility;
  return text + ".";
}

// NaN or inf where the right rate is finite, by warm-up length: only at warm-up lengths that
// make a denominator 0 (0 or 1), it is a division by zero there.
inline std::string nan_diagnosis(const std::vector<long long>& warmups_with_nan, const std::string& example) {
  if (warmups_with_nan.empty()) return "";
  bool one_length = true;
  for (long long w : warmups_with_nan) one_length = one_length && w == warmups_with_nan.front();
  const long long w = warmups_with_nan.front();
  std::string text =
      "NaN or inf in " + std::to_string(warmups_with_nan.size()) + " cases (e.g. " + example + ")";
  if (!one_length || w > 1) return text + "; one possibility is a division by zero.";
  text += ", all with warmup_steps " + std::to_string(w) +
          " and none with another length: a division by a "
          "denominator that is 0 when warmup_steps is " +
          std::to_string(w) + "; one possibility is ";
  return text + (w == 0 ? "step / warmup_steps computed before the target is returned (the test step > "
                          "warmup_steps where step >= warmup_steps belongs)."
                        : "warmup_steps - 1 where warmup_steps belongs.");
}

}  // namespace lesson07
