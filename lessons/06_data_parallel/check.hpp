// Lesson 06's --check: every checked step against one process taking the same step.
//   part 1  the averaged gradient == the one-process gradient of the whole global batch
//   part 2  the step itself: the weights' change and the new velocity against a step written
//           here a second time, in double, independently of the lesson's sgd_momentum_update:
//           velocity' = momentum * velocity + g;  params' = params - lr * velocity'
//   part 3  the replicas bit-identical after every step
// The first wrong quantity, in the order the step computes them, gets one diagnosis: each wrong
// value related to everything the check knows (ringlab/check/value_relation.hpp) — the right
// value, this rank's own gradient from before the averaging and the step it would take with it,
// a second step on top of the right one. Every rank relates its own values; the first rank with
// wrong ones speaks for all.
#pragma once
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "ringlab/check/collective_calls.hpp"
#include "ringlab/check/diagnose_runs.hpp"
#include "ringlab/check/value_relation.hpp"
#include "ringlab/ringlab.hpp"
#include "shared/by_rank.hpp"
#include "shared/format.hpp"
#include "shared/momentum_step.hpp"
#include "shared/replica.hpp"
#include "shared/training.hpp"

namespace lesson06 {
using lessons::sci;

// The weights' change after a step may differ from the one-process step by the rounding of the
// averaged gradient (~1e-6) and of float weights (~1e-4 of a small step): 1e-3 leaves room for
// both and catches a step skipped, doubled or scaled wrong.
constexpr double kStepTolerance = 1e-3;
constexpr double kGradientTolerance = 1e-5;

class StepCheck {
 public:
  explicit StepCheck(ringlab::Communicator& comm) : comm_(comm) {}

  // Before the distributed step, while the parameters are still this step's and grad() holds this
  // rank's own gradient: that gradient, the one-process gradient of examples [first, first +
  // batch) of the epoch's order, and the steps taken with each.
  void before_step(lessons::Replica& replica, const lessons::TrainingState& state, int first, int batch,
                   float lr, float momentum) {
    own_grad_ = replica.grad_on_host();
    replica.whole_gradient(first, batch, whole_grad_);
    replica.sync_to_host();
    params_ = state.params;
    velocity_ = state.velocity;
    lr_ = lr;
    momentum_ = momentum;
    const std::size_t size = params_.size();
    for (auto* v : {&params_after_, &velocity_after_, &own_change_, &second_change_}) v->resize(size);
    for (std::size_t i = 0; i < size; ++i) {
      velocity_after_[i] = double(momentum) * velocity_[i] + whole_grad_[i];
      params_after_[i] = params_[i] - double(lr) * velocity_after_[i];
      own_change_[i] = -double(lr) * (double(momentum) * velocity_[i] + own_grad_[i]);
      second_change_[i] = -double(lr) * (double(momentum) * velocity_after_[i] + whole_grad_[i]);
    }
    scopes_before_ = ringlab::trace::scopes_opened();
  }

  // After it (the state on the host): parts 1 and 2, one line per checked step.
  void after_step(lessons::Replica& replica, const lessons::TrainingState& state, long long epoch) {
    using ringlab::View;
    const int n = comm_.size();
    // The collectives the step called (the averaging is one allreduce): each one a trace scope.
    collectives_ = ringlab::trace::scopes_opened() - scopes_before_;
    // What it called, against the average's one allreduce of the gradient (collective_calls.hpp).
    const std::size_t count = replica.parameter_count();
    const ringlab::CallsFound calls = ringlab::compare_calls(
        ringlab::trace::scope_calls_since(scopes_before_), {{"allreduce", "grad"}},
        {{"grad", replica.grad().data(), count}, {"params", replica.params().data(), count},
         {"velocity", replica.velocity().data(), count}},
        "distributed_optimizer_step");
    const std::vector<float>& grad = replica.grad_on_host();
    const double err_here = lessons::relative_error(grad, whole_grad_), err = comm_.max(err_here);
    if (err > kGradientTolerance && comm_.rank() == 0)  // where they differ: the first elements, both values
      ringlab::log(ringlab::Level::error) << "averaged gradient vs one process: "
                                          << ringlab::describe(ringlab::compare<float>(
                                                 View<const float>(whole_grad_), View<const float>(grad), 1));
    worst_gradient_ = std::max(worst_gradient_, err);
    const double worst = std::max(comm_.max(step_error(state)),
                                  comm_.max(lessons::relative_error(state.velocity, velocity_after_)));
    worst_step_ = std::max(worst_step_, worst);
    if ((err > kGradientTolerance || worst > kStepTolerance) && !explained_) {
      explained_ = true;  // one explanation: where the values differ, then why
      if (err <= kGradientTolerance && comm_.rank() == 0) {  // (the gradient's values were logged just above)
        const std::vector<float> ref_after(params_after_.begin(), params_after_.end());
        ringlab::log(ringlab::Level::error)
            << "weights after step " << state.step << " vs one process taking it: "
            << ringlab::describe(ringlab::compare<float>(View<const float>(ref_after), View<const float>(state.params), 1));
      }
      const std::string where =
          "rank " + std::to_string(comm_.rank()) + ", step " + std::to_string(state.step);
      const std::string mine =
          err > kGradientTolerance ? explain_gradient(where, grad, state) : explain_step(where, state);
      for (const auto& text : comm_.gather_strings(mine))  // (rank 0 only: the first rank that has one)
        if (cause_.empty()) cause_ = text;
      if (err > kGradientTolerance)
        if (const std::string across = rank_factors(err_here <= kGradientTolerance); !across.empty()) cause_ = across;
      // The calls first when they differ: they say what the step did; the values, where it shows
      // (left out when the calls name the cause: collective_calls.hpp says why).
      // On 1 rank a collective changes no value: a call missing or extra there is not why the
      // values are wrong, so they come first, and the calls after them.
      if (comm_.size() == 1 && !calls.text.empty() && !cause_.empty())
        cause_ += "\ndiagnosis: " + calls.text + " (On 1 rank that call changes no value: not what made them wrong.)";
      else if (calls.cause) cause_ = calls.text;
      else if (!calls.text.empty()) cause_ = calls.text + (cause_.empty() ? "" : "\ndiagnosis: " + cause_);
      // With the averaged gradient right everywhere, which ranks ran the update comes after the
      // calls: a broadcast can make the weights agree, but only an update moves the velocity.
      if (const std::string ran = err <= kGradientTolerance ? velocity_by_rank(state) : ""; !ran.empty())
        cause_ = calls.text.empty() ? ran : calls.text + "\ndiagnosis: " + ran;
    }
    checked_step_ = state.step;
    ringlab::print_once(comm_, "check: epoch " + std::to_string(epoch + 1) + " step " + std::to_string(state.step) +
                                   ": averaged gradient of " + ringlab::plural(n, "rank") +
                                   " vs one process, max rel. diff " + sci(err) +
                                   (err <= kGradientTolerance ? " ok" : " WRONG (> 1e-5)") +
                                   "; weights and velocity after the step " + sci(worst) +
                                   (worst <= kStepTolerance ? " ok" : " WRONG (> 1e-3)") + "\n");
  }

  // Part 3, after every step. When it is the first symptom, its evidence: the step, and whether the
  // check compared that step with one process (a wrong gradient or step there is explained first).
  void replicas(const lessons::TrainingState& state) {
    if (lessons::replicas_identical(comm_, state.params, state.velocity)) return;
    identical_ = false;
    ringlab::print_once(comm_, "check: step " + std::to_string(state.step) + ": replicas differ WRONG\n");
    if (explained_ || comm_.size() == 1) return;
    explained_ = true;
    cause_ = "the replicas differ after step " + std::to_string(state.step);
    if (checked_step_ == state.step)
      cause_ +=
          ", though on every rank the averaged gradient and the weights after the update matched one "
          "process within the check's tolerance, so the ranks differ by no more than that; one possibility "
          "is that they combined the gradients in different orders (every rank must compute the same bits)";
    else
      cause_ +=
          ", a step the check did not compare with one process (the checked steps before it were right): "
          "from this step on the ranks took different steps";
    cause_ += ".";
  }

  // The verdict: the diagnosis if something was wrong, the summary, the exit code.
  int finish() {
    const bool ok = identical_ && worst_gradient_ <= kGradientTolerance && worst_step_ <= kStepTolerance;
    if (!cause_.empty()) ringlab::print_once(comm_, "diagnosis: " + cause_ + "\n");
    ringlab::print_once(comm_, std::string("check: ") +
                                   (identical_ ? "replicas bit-identical after every step" : "replicas DIFFER") +
                                   ", worst gradient difference " + sci(worst_gradient_) +
                                   ", worst step difference " + sci(worst_step_) + (ok ? ": PASSED\n" : ": FAILED\n"));
    return ok ? 0 : 1;
  }

 private:
  using Evidence = std::vector<ringlab::ValueEvidence>;

  // The weights' change (after - before), reference's and ours, so that a small step on large
  // weights is compared at its own scale.
  double step_error(const lessons::TrainingState& after) const {
    std::vector<double> want(params_.size()), got(params_.size());
    for (std::size_t i = 0; i < params_.size(); ++i) {
      want[i] = params_after_[i] - params_[i];
      got[i] = double(after.params[i]) - params_[i];
    }
    return lessons::relative_error(got, want);
  }

  // How far weight i moved, and how far it may be off by rounding alone: the float weight's last
  // bits, and the averaged gradient's rounding (kGradientTolerance of the largest step) carried on.
  double change(const lessons::TrainingState& after, std::size_t i) const {
    return double(after.params[i]) - params_[i];
  }
  double change_rounding(const lessons::TrainingState& after, std::size_t i, double largest_step) const {
    return 2 * FLT_EPSILON * std::fmax(std::fabs(params_[i]), std::fabs(after.params[i])) +
           kGradientTolerance * largest_step;
  }
  template <class V> static double largest(const V& v) {
    double m = 0;
    for (double x : v) m = std::fmax(m, std::fabs(x));
    return m;
  }

  // value_relation's sentence about this rank's wrong values; rank 0 also records their factor for
  // the diagnosis across runs (diagnose_runs.hpp: how the factor changes with the number of ranks).
  // Each rank keeps its factor (factor_: "k", "nan" for NaN or inf, "" for none) for the
  // comparison across the ranks (rank_factors).
  std::string explain(const std::string& what, const Evidence& evidence, const std::vector<ringlab::CauseOf>& causes,
                      const std::vector<long long>& index, const std::vector<ringlab::NamedFactor>& known = {}) {
    const int n = comm_.size();
    const auto found = ringlab::relate(evidence, n, known);
    if (comm_.rank() == 0) ringlab::record_check_relation(found);
    factor_.clear();
    for (const auto& f : found)
      if (factor_.empty() && f.relation == ringlab::Relation::factor) factor_ = lessons::format("%.9g", f.k);
      else if (factor_.empty() && f.relation == ringlab::Relation::not_finite) factor_ = "nan";
    return ringlab::explain(what, evidence, n, causes, "place", index, known);
  }

  // The velocity after the step, right on some ranks only (gathered to rank 0): the update ran
  // on those alone. Weights can come from another rank (a broadcast), the velocity cannot, so it
  // tells which ranks stepped. "" when all or none are right, and on ranks other than 0.
  std::string velocity_by_rank(const lessons::TrainingState& state) {
    const bool right = lessons::relative_error(state.velocity, velocity_after_) <= kStepTolerance;
    const auto all = comm_.gather_strings(right ? "right" : state.velocity == velocity_ ? "kept" : "wrong");
    std::vector<bool> wrong;
    bool kept = true;  // every wrong rank still holds the velocity from before the step
    for (const auto& a : all) {
      wrong.push_back(a != "right");
      kept = kept && a != "wrong";
    }
    const std::string some = lessons::only_some_ranks(
        wrong, false, kept ? " (there it is still the velocity from before the step: the update never ran there)" : "",
        "the update");
    return some.empty() ? "" : "the velocity after the step is " + some + ".";
  }

  // The gradient's factor on every rank (gathered to rank 0), when it differs between the ranks:
  // a divisor that depends on the rank. k = n / r on rank r (NaN or inf on rank 0, a division by
  // zero) is the rank's number where the number of ranks belongs. "" when the ranks agree, a rank
  // has no factor, or on ranks other than 0.
  // k = n / local_size on every rank (the ranks on its host, comm.local_size()) is the host's
  // count where the world's belongs; the check spreads the ranks over simulated hosts so that the
  // two differ (exercises/manifest.txt: ranks-per-host).
  // Right on some ranks and wrong on the others: said as such (by_rank.hpp), with the factor of
  // the wrong ones.
  std::string rank_factors(bool right_here) {
    const auto all = comm_.gather_strings((right_here ? "=" : factor_) + " " + std::to_string(comm_.local_size()));
    if (comm_.rank() != 0 || all.size() < 2) return "";
    std::vector<bool> wrong;
    std::string wrong_factor;
    for (const auto& a : all) {
      wrong.push_back(a[0] != '=');
      if (wrong.back() && wrong_factor.empty()) wrong_factor = a.substr(0, a.find(' '));
    }
    const std::string times =
        wrong_factor.empty() || wrong_factor == "nan"
            ? std::string()
            : " (each wrong value " + lessons::format("%.4g", std::strtod(wrong_factor.c_str(), nullptr)) + " times the right one)";
    if (const std::string some = lessons::only_some_ranks(wrong, false, times); !some.empty())
      return "the averaged gradient is " + some + ".";
    std::string values, first;
    bool by_rank = true, by_local = true, differ = false;
    const double n = double(all.size());
    for (std::size_t r = 0; r < all.size(); ++r) {
      const std::string factor = all[r].substr(0, all[r].find(' '));
      const double local = std::strtod(all[r].c_str() + all[r].find(' '), nullptr);
      if (factor.empty()) return "";
      if (r == 0) first = factor;
      differ = differ || factor != first;
      const double k = std::strtod(factor.c_str(), nullptr), want = n / double(r);
      by_rank = by_rank && (r == 0 ? std::isnan(k) : std::fabs(k - want) <= 1e-3 * want);
      by_local = by_local && std::fabs(k - n / local) <= 1e-3 * n / local;
      values += (r ? ", " : "") + (factor == "nan" ? std::string("NaN or inf") : lessons::format("%.4g", k)) +
                " on rank " + std::to_string(r);
    }
    if (!differ) return "";
    const std::string evidence = "the averaged gradient's wrong values are k times the right ones, k = " + values;
    if (by_rank)
      return evidence + ": k = n / r on rank r (a division by zero on rank 0) — divided by the rank's number "
                        "(comm.rank()) where the mean divides by the number of ranks (comm.size()).";
    if (by_local)
      return evidence + ": k = n / local_size on every rank — divided by the ranks on this rank's host "
                        "(comm.local_size()) where the mean divides by the ranks everywhere (comm.size()); the "
                        "check puts the ranks on simulated hosts of " + std::to_string(comm_.local_size()) +
                        ", as a cluster would.";
    return evidence + ": the factor depends on the rank — one possibility is a divisor computed from comm.rank().";
  }

  // The wrong places: each i < size whose evidence, made by at(i), is off by more than `tolerance`.
  template <class At> static void collect(std::size_t size, double tolerance, At at, Evidence& evidence,
                                          std::vector<long long>& index) {
    for (std::size_t i = 0; i < size; ++i) {
      const ringlab::ValueEvidence e = at(i);
      if (std::fabs(e.got - e.expected) <= tolerance) continue;  // (NaN is wrong)
      evidence.push_back(e);
      index.push_back(static_cast<long long>(i));
    }
  }

  // This rank's chunk of the gradient (the ring's chunk_of, owned_chunk, or my_part's split) when the wrong places
  // `index` all lie outside it and are most of what is outside (a gradient element that is 0 is
  // right whatever multiplies it): right in that chunk alone.
  std::optional<ringlab::Chunk> right_only_in_own_chunk(const std::vector<long long>& index, std::size_t size) const {
    const int n = comm_.size(), r = comm_.rank();
    // my_part's split (solutions/06): n equal parts of size / n, the remainder in none.
    const ringlab::Chunk split{static_cast<std::size_t>(r) * (size / static_cast<std::size_t>(n)),
                               size / static_cast<std::size_t>(n)};
    for (const ringlab::Chunk c : {ringlab::chunk_of(size, n, r), ringlab::owned_chunk(size, n, r), split}) {
      if (n < 2 || c.count == 0 || 2 * index.size() < size - c.count) continue;
      if (std::none_of(index.begin(), index.end(), [&](long long i) {
            return std::size_t(i) >= c.offset && std::size_t(i) < c.offset + c.count;
          }))
        return c;
    }
    return std::nullopt;
  }

  // True when every weight moved as this rank's own gradient moves it (the step used the local
  // gradient, not the average).
  bool stepped_with_own_gradient(const lessons::TrainingState& after) const {
    const double step = largest(own_change_);
    for (std::size_t i = 0; i < params_.size(); ++i)
      if (!(std::fabs(change(after, i) - own_change_[i]) <=
            1e-4 * std::fabs(own_change_[i]) + change_rounding(after, i, step)))
        return false;
    return step > 0;
  }

  // Part 1 wrong on this rank: each wrong element of the averaged gradient against the
  // one-process gradient and this rank's own gradient. What `grad` holding the rank's own
  // gradient means depends on what the weights did with it.
  std::string explain_gradient(const std::string& where, const std::vector<float>& grad,
                               const lessons::TrainingState& after) {
    const int n = comm_.size();
    const double rounding = kGradientTolerance * largest(whole_grad_);
    Evidence evidence;
    std::vector<long long> index;
    collect(
        grad.size(), rounding,
        [&](std::size_t i) {
          return ringlab::ValueEvidence{
              .expected = whole_grad_[i], .got = grad[i], .own = own_grad_[i], .rounding = rounding};
        },
        evidence, index);
    // The wrong places where grad held this rank's own non-zero gradient before the step.
    const auto held =
        std::count_if(evidence.begin(), evidence.end(), [](const auto& e) { return e.own != 0; });
    const bool step_right = step_error(after) <= kStepTolerance &&
                            lessons::relative_error(after.velocity, velocity_after_) <= kStepTolerance;
    const bool unmoved = std::equal(params_.begin(), params_.end(), after.params.begin());
    // The weights did not move, and grad is the average minus lr * the velocity after the step:
    // the update stepped grad, not the weights. A velocity that is the weights (from rest) says
    // what it stepped grad with.
    if (unmoved && !evidence.empty()) {
      bool stepped_grad = true, with_weights = true;
      for (std::size_t i = 0; i < grad.size() && (stepped_grad || with_weights); ++i) {
        const double moved = double(lr_) * after.velocity[i];
        stepped_grad = stepped_grad && std::fabs(grad[i] - (whole_grad_[i] - moved)) <= rounding + 1e-5 * std::fabs(moved);
        with_weights = with_weights && after.velocity[i] == params_[i];
      }
      if (stepped_grad)
        return where + ", the averaged gradient: " + std::to_string(evidence.size()) + " wrong values, e.g. [" +
               std::to_string(index.front()) + "] expected " + lessons::format("%g", evidence.front().expected) +
               " got " + lessons::format("%g", evidence.front().got) +
               "; the weights did not move, and grad is the average minus lr * the velocity after the step, at "
               "every element: the update stepped grad instead of the weights" +
               (with_weights ? ", and the velocity holds the weights: it took the weights as its gradient — "
                               "params and grad in each other's places in sgd_momentum_update."
                             : ".");
    }
    // (No hole named in these: the weights are evidence here, not the step's fault.)
    const std::string own_left =
        unmoved ? "grad still holds this rank's own gradient and the weights did not move: the gradients "
                  "were never averaged into grad, and no update ran"
        : stepped_with_own_gradient(after)
            ? "the gradients were never averaged across the ranks: grad still holds this rank's own "
              "gradient, and the weights moved as it moves them"
        : step_right
            ? "the weights moved as one process moves them, but grad still holds this rank's own gradient: "
              "the averaged gradient went to another buffer and was never written back into grad"
            : "grad still holds this rank's own gradient: it was never averaged across the ranks, or the "
              "averaged gradient went to another buffer";
    using ringlab::Relation;
    const double nn = n;
    // 0 where grad held a non-zero gradient was written, not left unwritten: multiplied by 0 (the
    // average's fault) or overwritten (either hole's). Tagged so, a check that finds the average hole
    // passing with the reference step drops the first reading (localise::speak_of_failing).
    const bool written_over =
        held && !step_right && std::all_of(evidence.begin(), evidence.end(), [](const auto& e) { return e.got == 0; });
    std::vector<ringlab::CauseOf> causes{
        {Relation::not_finite, "a division by zero, or values read from memory nobody wrote"},
         {Relation::zero,
          held && step_right
              ? "0 was written where grad held this rank's own non-zero gradient, after the update: the weights "
                "and the velocity moved as the average moves them, so the update had the average — grad was "
                "set to 0 after it (a zero_grad at the end of the step), where it must still hold the average "
                "when the step returns"
          : written_over ? "that grad was multiplied by 0: 1 / n computed in integers is 0 (your average hole)"
                         : "never written, or multiplied by 0 (1 / n computed in integers is 0)"},
         {Relation::own, own_left, 1.0},
         {Relation::own,
          "each rank divided its own gradient by n, but the gradients were never summed across the ranks "
          "(no allreduce before the division)",
          1 / nn},
         {Relation::own,
          "each rank divided its own gradient by n twice, and the gradients were never summed across the "
          "ranks",
          1 / (nn * nn)},
         {Relation::factor,
          collectives_ >= 2
              ? "summed twice: the step made " + std::to_string(collectives_) +
                    " collective calls where the average makes one allreduce, and a second sum over the ranks "
                    "multiplies the sum by n again, so the division by n leaves the sum — allreduce once"
              : "summed where the mean belongs — divide by the number of ranks (comm.size())",
          nn},
         {Relation::factor, "divided by the number of ranks twice", 1 / nn},
         {Relation::factor,
          "divided by n - 1 (comm.size() - 1) where the mean divides by the number of ranks (comm.size())",
          nn / (nn - 1)},
         // (one run cannot tell n - 1 from a fixed divisor; the runs on other numbers of ranks can)
         {Relation::factor, "divided by a fixed number where the number of ranks (comm.size()) belongs",
          nn / (nn - 1)},
         {Relation::factor, "multiplied by n where dividing by n belongs (the sum times n)", nn * nn},
         {Relation::factor, "divided by the number of ranks three times (the sum divided by n³)",
          1 / (nn * nn)},
         {Relation::factor, "the sign is turned round", -1.0},
         // sgd_momentum_update(params, grad, velocity, ...) writes momentum * velocity + grad into
         // its third argument: from velocity 0, grad handed in that place comes back momentum * grad.
         {Relation::factor,
          "grad was multiplied by the momentum: the optimizer writes velocity = momentum * velocity + grad into "
          "its velocity argument, so one possibility is grad passed where the velocity belongs (grad and "
          "velocity in each other's place)",
          double(momentum_)},
         {Relation::factor, "divided by grad.size() (the number of gradient elements) where the mean divides by the "
                            "number of ranks (comm.size())",
          nn / double(grad.size())}};
    if (written_over)
      causes.push_back({Relation::zero, std::string("that it was overwritten with zeros once averaged (a fill, or a "
                                                    "zero_grad") +
                                            (unmoved ? ", before the update: the weights did not move, so the "
                                                       "update had 0 as its gradient)"
                                                     : ")")});
    // Where the wrong values lie: all outside this rank's own chunk of the gradient, every value in
    // it right — the division reached that chunk only, and the others keep the sum.
    std::string place = where + ", the averaged gradient";
    if (written_over)
      place += " (0 where grad held this rank's own non-zero gradient, at " + std::to_string(held) + " of the " +
               std::to_string(evidence.size()) + " wrong places: written, not left unwritten)";
    if (const auto mine = right_only_in_own_chunk(index, grad.size()); mine) {
      place += " (wrong only outside this rank's chunk [" + std::to_string(mine->offset) + ", " +
               std::to_string(mine->offset + mine->count) + "); inside it every value is right)";
      std::erase_if(causes, [&](const ringlab::CauseOf& c) {
        return c.relation == Relation::factor && (c.k == nn || c.k == nn / (nn - 1));
      });
      causes.push_back({Relation::factor,
                        "only this rank's chunk was divided by n, the other chunks keep the sum — scale the whole "
                        "gradient (grad), not a chunk of it",
                        nn});
    }
    return explain(
        place, evidence, causes, index,
        {{double(momentum_), "the momentum (" + lessons::format("%g", double(momentum_)) + ")"},
         {nn / double(grad.size()), "n / grad.size() = " + std::to_string(n) + " / " + std::to_string(grad.size())}});
  }

  // Part 2 wrong, the averaged gradient right (grad holds the average after the step): how far
  // each wrong weight moved, against how far one process moves it, how far this rank's own
  // gradient would move it, and the right step plus a second one; when the weights are right,
  // the velocity against the one before the step.
  std::string explain_step(const std::string& where, const lessons::TrainingState& after) {
    std::vector<double> want(params_.size());
    for (std::size_t i = 0; i < params_.size(); ++i) want[i] = params_after_[i] - params_[i];
    const double step = largest(want);
    Evidence evidence;
    std::vector<long long> index;
    collect(
        params_.size(), kStepTolerance * step,
        [&](std::size_t i) {
          return ringlab::ValueEvidence{.expected = want[i],
                                        .got = change(after, i),
                                        .own = own_change_[i],
                                        .rounding = change_rounding(after, i, step),
                                        .terms = {second_change_[i]}};
        },
        evidence, index);
    using ringlab::Relation;
    const int n = comm_.size();
    // Every weight of this rank's part moved right and (most of) the others did not: the step
    // was taken on a part of the weights only. Said as such, and no factor is recorded for the
    // runs together (a 0 there is not a 1/n computed in integers).
    if (const auto mine = right_only_in_own_chunk(index, params_.size()); mine && !evidence.empty()) {
      const std::string text =
          ringlab::explain(where + ", how far each weight moved (wrong only outside this rank's part [" +
                               std::to_string(mine->offset) + ", " + std::to_string(mine->offset + mine->count) +
                               "); inside it every weight moved right)",
                           evidence, n,
                           {{Relation::zero,
                             "only this rank's part of the weights was stepped, the others never moved — every rank "
                             "holds the whole model and steps all of it (params, grad and velocity whole)"}},
                           "place", index);
      factor_.clear();
      return text;
    }
    // The velocity tells what the update was handed: right, it had the right gradient, and a
    // weight that moved k times as far had k times the learning rate.
    const bool velocity_right = lessons::relative_error(after.velocity, velocity_after_) <= kStepTolerance;
    const std::string lr_too_big =
        velocity_right ? "the velocity after the step is right, so the update was handed the right gradient: the "
                         "learning rate it used was too big or too small by that factor"
                       : "one possibility is a learning rate scaled by that factor";
    const std::string twice =
        "the optimizer step is taken twice (a second step with the same gradient on top of the right one)";
    std::vector<ringlab::CauseOf> causes{
        {Relation::zero,
         "the optimizer step is missing (after averaging the gradients, call sgd_momentum_update)"},
        {Relation::own,
         "the update ran before the averaging: it used this rank's own gradient (grad holds the average "
         "only after the step)",
         1.0},
        {Relation::factor,
         velocity_right ? lr_too_big
                        : "the update ran between the allreduce and the division by n: it used the sum of the gradients",
         double(n)},
        {Relation::factor, lr_too_big, std::sqrt(double(n))},
        {Relation::factor, lr_too_big, 1 / double(n)},
        {Relation::extra_term, twice},
        {Relation::factor, "the update adds lr * velocity instead of subtracting it", -1.0}};
    // From velocity 0 a second step goes 1 + momentum as far as the first: 2 + momentum in all.
    const bool from_rest = std::all_of(velocity_.begin(), velocity_.end(), [](float v) { return v == 0; });
    if (from_rest) causes.push_back({Relation::factor, twice, 2 + double(momentum_)});
    // The step's own numbers name a factor a count of ranks cannot: from velocity 0 the weights move
    // lr * grad, so a step that moved momentum / lr times as far took momentum as its learning rate.
    // And 1 + momentum, with a wrong velocity: the gradient was in the velocity before the update.
    std::vector<ringlab::NamedFactor> known{lessons::lr_momentum_swapped_factor(lr_, momentum_)};
    if (from_rest) causes.push_back(lessons::lr_momentum_swapped_cause(lr_, momentum_, "sgd_momentum_update"));
    if (from_rest && !velocity_right) {
      known.push_back(lessons::gradient_in_velocity_factor(momentum_));
      causes.push_back(lessons::gradient_in_velocity_cause(momentum_, "sgd_momentum_update"));
    }
    // Not from rest, yet every wrong weight moved as a step from velocity 0 moves it: the
    // momentum * velocity the step before left was lost on the way (shared/momentum_step.hpp).
    if (!evidence.empty() && !from_rest) {
      const double largest_rest = double(lr_) * largest(whole_grad_);
      const auto rounding = [&](std::size_t i) { return change_rounding(after, i, largest_rest); };
      const std::string lost =
          lessons::velocity_lost(where + ", how far each weight moved", evidence, index, lr_, whole_grad_, rounding);
      if (!lost.empty()) return lost;
    }
    // Two numbers for how far every wrong weight moved (shared/momentum_step.hpp): from rest, a *
    // the weights before + b * the gradient; after it, a * the velocity before + b * the gradient.
    if (!evidence.empty()) {
      const auto moved = lessons::fit_two_terms(evidence, index, from_rest ? params_ : velocity_, whole_grad_);
      const std::string cause = !moved   ? ""
                                : from_rest ? lessons::params_velocity_swapped(*moved, momentum_, "sgd_momentum_update")
                                            : lessons::momentum_carried(*moved, lr_, momentum_, comm_.size());
      if (!cause.empty()) return lessons::wrong_values(where + ", how far each weight moved", evidence, index) + "; " + cause;
      return explain(where + ", how far each weight moved", evidence, causes, index, known);
    }

    collect(
        params_.size(), kStepTolerance * largest(velocity_after_),
        [&](std::size_t i) {
          return ringlab::ValueEvidence{
              .expected = velocity_after_[i], .got = after.velocity[i], .before = velocity_[i]};
        },
        evidence, index);
    // (From velocity 0, a velocity never stored is also 0: the same cause.)
    const std::string kept = "the weights moved right, but the new velocity was never stored";
    causes = {{Relation::step_before, kept}};
    if (from_rest) causes.push_back({Relation::zero, kept});
    return explain(where + ", the velocity after the step", evidence, causes, index);
  }

  ringlab::Communicator& comm_;
  std::vector<float> own_grad_, whole_grad_, params_, velocity_;  // this rank's gradient, the one-process
                                                                  // one; the state before the step
  std::vector<double> params_after_, velocity_after_;  // the reference step's result
  std::vector<double> own_change_, second_change_;     // the step with the own gradient; one more step
  float lr_ = 0, momentum_ = 0;
  double worst_gradient_ = 0, worst_step_ = 0;
  long long checked_step_ = -1;
  long long scopes_before_ = 0, collectives_ = -1;  // trace scopes before the step; opened during it
  bool identical_ = true, explained_ = false;
  std::string cause_;  // the first wrong quantity's diagnosis (the one rank 0 prints)
  std::string factor_;  // this rank's factor of its last explanation (explain)
};

}  // namespace lesson06
