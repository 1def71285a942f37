// Lesson 09's --check: every stage against stage 0 (lesson 06's data parallelism), each from the
// same initial model, over the same kSteps global batches.
//   part 1  every step's averaged gradient, gathered from the shards, == the one-process gradient
//           of the whole global batch (within 1e-5, as lesson 06's check)
//   part 2  after kSteps steps, the whole model (parameters and momentum, gathered from the
//           shards) == stage 0's. On 1 or 2 ranks bit for bit: every element's sum then has a
//           single order (x0 + x1 == x1 + x0, exactly), so nothing but a wrong step can differ.
//           On 3 or more ranks, within 1e-5 of the largest element: the allreduce (lesson 05's
//           schedule) starts each chunk's sum at another rank than reduce_scatter does, so some
//           sums round differently in their last bit (2^-24 = 6e-8 relative), which makes the
//           averaged gradients differ by a few 1e-7 (what part 1 sees as well); the momentum is a
//           sum of those gradients, the parameters move by lr times it, so after a few steps both
//           differ by a few 1e-7 (measured: 2e-7 at np 4), and the gradient's tolerance, 1e-5,
//           bounds them. A shard left out of the update, updated twice or averaged wrong moves
//           its elements by about the step itself: 1e-3 of the largest and more.
//   part 3  the shards agree: every rank gathers the same model, bit for bit (stages 1 and 2,
//           which keep the whole parameters, hold identical replicas, as lesson 06's ranks do)
//   part 4  stage 1's step sends what stage 0's sends (within 1%, the most over the ranks, from
//           step 0's trace): a reduce-scatter and an allgather are the allreduce's two halves. An
//           allreduce in the reduce-scatter's place gets every value right and sends 1.5 times
//           as much: the values alone cannot show that sharding was missed.
// The diagnosis (recorded as the parts run, it changes no verdict): the first wrong quantity, in
// the order a step computes them — the averaged gradient, then the parameters after the step
// against stage 0's after the same step — with how its wrong values relate to the right ones
// (ringlab/check/value_relation.hpp): n times the mean, the owner rank's own gradient alone, a
// move of 0 outside this rank's own shard, ... The relation, not the name of a mistake, picks
// the sentence, and it is firm only when the evidence singles one cause out.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "ringlab/check/collective_calls.hpp"
#include "ringlab/check/harness.hpp"
#include "ringlab/check/named_sizes.hpp"
#include "ringlab/check/value_relation.hpp"
#include "ringlab/ringlab.hpp"
#include "sharded_optimizer.hpp"
#include "shared/by_rank.hpp"
#include "shared/training.hpp"
#include "shared/momentum_step.hpp"

namespace lesson09 {
using lessons::sci;

constexpr int kSteps = 5;
constexpr double kGradientTolerance = 1e-5;
constexpr double kModelTolerance = 1e-5;

inline std::vector<float> to_host(View<float> v) {
  std::vector<float> h(v.size());
  ringlab::copy(View<float>(h), View<const float>(v));
  return h;
}

// Which rank's shard holds element i of the flat model: stage 1 cuts the whole array into n
// chunks, stages 2 and 3 cut each layer (sharded_optimizer.hpp's Shards).
inline int owner_of(std::size_t i, int stage, const ringlab::LayerwiseModel& model, int n) {
  ringlab::Chunk span{0, model.parameter_count()};
  if (stage >= 2)
    for (const ringlab::Chunk& l : model.layers())
      if (i >= l.offset && i < l.offset + l.count) span = l;
  for (int r = 0; r < n; ++r) {
    const ringlab::Chunk c = ringlab::owned_chunk(span.count, n, r);
    if (i >= span.offset + c.offset && i < span.offset + c.offset + c.count) return r;
  }
  return -1;
}

// Stage 1's wrong places, when they all lie at the edges of chunks (the first or the last few
// places of a rank's chunk, fewer than half of it, the same edge for every such chunk): the slice
// a rank divided and updated missed that edge, its offset or its size off. "" otherwise. (Wrong
// places may skip a right one: a gradient of 0 is right whatever divides it.)
inline std::string at_chunk_edges(const std::vector<long long>& index, std::size_t total, int n) {
  if (index.empty() || n < 2) return "";
  std::string where;
  int edge = 0;  // +1: every group at its chunk's end, -1: at its start
  std::size_t e = 0;
  for (int r = 0; r < n && e < index.size(); ++r) {
    const ringlab::Chunk c = ringlab::owned_chunk(total, n, r);
    const long long first = static_cast<long long>(c.offset), last = first + static_cast<long long>(c.count) - 1;
    if (index[e] > last) continue;
    const long long lo = index[e];
    while (e < index.size() && index[e] <= last) ++e;
    const long long hi = index[e - 1];
    if (2 * (hi - lo + 1) >= static_cast<long long>(c.count)) return "";
    const int here = hi >= last - 1 && lo > first + 1 ? 1 : lo <= first + 1 && hi < last - 1 ? -1 : 0;
    if (here == 0 || (edge != 0 && here != edge)) return "";
    edge = here;
    const long long k = here > 0 ? last - lo + 1 : hi - first + 1;
    where += (where.empty() ? "" : ", ") + std::string(here > 0 ? "the last " : "the first ") + std::to_string(k) +
             " of rank " + std::to_string(r) + "'s (" + std::to_string(first) + ".." + std::to_string(last) + ")";
  }
  if (e < index.size()) return "";
  return "Every wrong place lies at the " + std::string(edge > 0 ? "end" : "start") + " of a chunk: " + where +
         ". The slice a rank divided and updated " + (edge > 0 ? "stopped short of its chunk's end" : "began past its chunk's start") +
         " — one possibility is an offset or size computed by hand (rank * count), where owned_chunk()'s belongs: "
         "when n does not divide the model, the chunks differ in size by one.";
}

// What stepped_with (below) saw of the update at step 0: whether it stepped with another gradient
// than the one the check reads back, and what it says (empty: the update stepped with it, nothing else).
struct StepVerdict {
  bool other_gradient = false;
  std::string text;
};
inline StepVerdict stepped_with(int s, int n, float lr, const std::vector<float>& before,
                                const std::vector<float>& after, const std::vector<float>& want,
                                const std::vector<float>& got);

// The averaged gradient of step `s` was wrong: how it relates to the one-process gradient and to
// each chunk's owner's own gradient (what that rank computed from its part of the batch alone).
// Rank 0 computes every rank's own gradient itself: the model is the same on every rank.
// A cause read from the gradient holds only if the update stepped with that gradient: `step_used`
// (stepped_with's verdict) says when it did not, and then no cause is said, only what is known;
// what else it saw (parameters scaled besides the step) follows the gradient's cause.
inline std::string explain_gradient(ringlab::LayerwiseModel& model, ringlab::Where where, int stage, int n, int s,
                                    int set, int batch, const std::vector<float>& params,
                                    const std::vector<float>& want, const std::vector<float>& got,
                                    const StepVerdict& step_used, float momentum, double velocity_k) {
  const int part = batch / n;
  std::vector<std::vector<float>> own(n);
  Buffer<float> p(params.size(), where), g(params.size(), where);  // where the model computes
  ringlab::copy(p.view(), View<const float>(params));
  for (int r = 0; r < n; ++r) {
    model.loss_and_gradient(p.view().data(), set, s * batch + r * part, part, g.view().data());
    own[r] = to_host(g.view());
  }
  std::vector<ringlab::ValueEvidence> evidence;
  std::vector<long long> index;
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (std::fabs(got[i] - want[i]) <= kGradientTolerance * std::fmax(1.0, std::fabs(want[i]))) continue;
    ringlab::ValueEvidence e;
    e.expected = want[i];
    e.got = got[i];
    const int owner = owner_of(i, stage, model, n);
    if (owner >= 0) e.own = own[owner][i], e.others = n * double(want[i]) - own[owner][i];  // the sum is n means
    evidence.push_back(e);
    index.push_back(static_cast<long long>(i));
  }
  // Whose chunks hold the wrong values: right in some owners' chunks only says the ranks did not
  // all do the same (by_rank.hpp).
  std::vector<bool> wrong_owner(static_cast<std::size_t>(n), false);
  for (long long i : index)
    if (const int o = owner_of(static_cast<std::size_t>(i), stage, model, n); o >= 0) wrong_owner[static_cast<std::size_t>(o)] = true;
  const std::string by_owner = lessons::only_some_ranks(wrong_owner, true);
  const std::string owners = by_owner.empty() ? "" : " The averaged gradient is " + by_owner + ".";
  using ringlab::Relation;
  const double nn = n;
  const std::string what = "stage " + std::to_string(stage) + ", step " + std::to_string(s) + ", the averaged gradient";
  if (const std::string edge = stage == 1 ? at_chunk_edges(index, want.size(), n) : ""; !edge.empty())
    return ringlab::explain(what, evidence, n, {}, "place", index) + " " + edge + owners;
  // The update stepped with another gradient than the chunk holds. Where the chunk holds its own
  // part divided by n plus the others' (the division before the sum), the update stepped before the
  // sum as well: with this rank's own gradient, divided.
  if (step_used.other_gradient)
    return ringlab::explain(what, evidence, n,
                            {{Relation::weights,
                              "only the owner's own part was divided by n: the division came before the "
                              "reduce-scatter's sum — and since the update did not step with the sum either, one "
                              "possibility is that the division and the update ran before reduce_scatter, on this "
                              "rank's own gradient (the order: reduce-scatter, divide, update, allgather)",
                              1 / nn, 1.0}},
                            "place", index) +
           " " + step_used.text + owners;
  const std::string besides = (step_used.text.empty() ? "" : " " + step_used.text) + owners;
  // From rest, a gradient momentum times the right one beside a velocity still 0: the two swapped.
  std::vector<ringlab::NamedFactor> known;
  std::vector<ringlab::CauseOf> swapped;
  if (s == 0 && std::fabs(velocity_k) < 1e-6) {
    known.push_back(lessons::momentum_factor(momentum));
    swapped.push_back(lessons::grad_velocity_swapped_cause(momentum, "sgd_momentum"));
  }
  std::vector<ringlab::CauseOf> causes{
      {Relation::factor, "the sum over the ranks was used where the mean belongs — divide your chunk by comm.size()", nn},
      {Relation::factor, "the gradient was divided by the number of ranks twice", 1 / nn},
      {Relation::own,
       "each chunk holds its owner's own gradient alone: the ranks' gradients were never summed — reduce-scatter "
       "before the update", 1 / nn},
      {Relation::own, "each chunk holds its owner's own gradient alone: never summed over the ranks", 1.0},
      {Relation::weights,
       "only the owner's own part was divided by n, the other ranks' parts were not: the division came before "
       "the sum (reduce_scatter adds what each rank holds), where it belongs after it, on the summed chunk",
       1 / nn, 1.0},
      // (never written, the chunk would hold this rank's own gradient, not 0: 0 was written)
      {Relation::zero,
       "0 was written into your chunk of the gradient, where the reduce-scatter left the sum: it was multiplied "
       "by 0 — 1 / n computed in integers is 0 — or overwritten with zeros"},
      {Relation::not_finite, "a division by zero, or memory nobody wrote"}};
  causes.insert(causes.end(), swapped.begin(), swapped.end());
  return ringlab::explain(what, evidence, n, causes, "place", index, known) + besides;
}

// Did the update step with the gradient the check reads back? At step 0 every velocity is still 0,
// so sgd_momentum moves each parameter by exactly -lr * g, for the g it was handed: a parameter
// that moved otherwise was stepped with another gradient than the one its owner's chunk holds
// after the step (another chunk of it, or another copy). Empty when every wrong place moved as its
// gradient says (then the gradient's relation explains the step too), or when the step is not 0.
inline StepVerdict stepped_with(int s, int n, float lr, const std::vector<float>& before,
                                const std::vector<float>& after, const std::vector<float>& want,
                                const std::vector<float>& got) {
  if (s != 0) return {};
  long long wrong = 0, otherwise = 0, as_mean = 0, unmoved = 0, stepped_here = 0, example = -1;
  // A place that moved otherwise: after = k * before + step, for one k everywhere, says that the
  // parameters themselves were multiplied by k besides the step (NaN: no one k fits).
  double k = NAN;
  bool one_k = true;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (std::fabs(got[i] - want[i]) <= kGradientTolerance * std::fmax(1.0, std::fabs(want[i]))) continue;
    ++wrong;
    const double moved = double(after[i]) - before[i], step = -double(lr) * got[i];
    // float rounding: the move is known to a few ulps of the parameter, a step to its own.
    const auto moved_by = [&](double step) {
      return std::fabs(moved - step) <= 4 * 6e-8 * (std::fabs(double(before[i])) + std::fabs(step)) + 1e-3 * std::fabs(step);
    };
    // (an inf step moves by that inf, a NaN step by NaN: as its gradient says, though no difference is finite)
    if (moved == step || (std::isnan(moved) && std::isnan(step)) || moved_by(step)) continue;
    if (otherwise++ == 0) example = static_cast<long long>(i);
    if (moved_by(-double(lr) * want[i])) ++as_mean;  // the right step, with the mean
    if (after[i] == before[i]) ++unmoved;            // not stepped at all
    // the mean less lr times itself: the step (from rest, -lr * the mean) landed in the gradient
    if (std::fabs(got[i] - (1 - double(lr)) * want[i]) <= kGradientTolerance * std::fmax(1.0, std::fabs(want[i])))
      ++stepped_here;
    if (std::fabs(before[i]) > 1e-4) {
      const double ki = (double(after[i]) - step) / before[i];
      if (std::isnan(k)) k = ki;
      else one_k = one_k && std::fabs(ki - k) <= 1e-3 * std::fmax(1.0, std::fabs(k));
    }
  }
  if (otherwise == 0) return {};
  const std::size_t e = static_cast<std::size_t>(example);
  // Every wrong place moved as the right step (with the mean) moves it, though the chunk holds
  // another gradient: the update was handed the right step by another road (lr / n with the sum).
  if (as_mean == wrong)
    return {false, "Yet the parameters moved exactly as a step with the mean moves them: at step 0 [" +
                       std::to_string(example) + "] moved " + lessons::format("%.6g", double(after[e]) - before[e]) +
                       ", -lr times the mean; so did every wrong place. The division by n was made somewhere other "
                       "than your chunk of the gradient — one possibility is lr / n handed to the update: from rest it "
                       "moves the parameters the same, but your chunk of the gradient (and the velocity) keeps the "
                       "sum. Divide the chunk itself."};
  if (one_k && std::isfinite(k) && std::fabs(k - 1) > 1e-3) {
    const bool over_n = n > 1 && std::fabs(k - 1.0 / n) <= 1e-3;
    return {false, "Yet the update stepped with this gradient, and the parameters were multiplied by " +
           lessons::format("%.4g", k) + (over_n ? " = 1/n" : "") + " besides: at step 0 (the momentum still 0) [" +
           std::to_string(example) + "] went from " + lessons::format("%.6g", double(before[e])) + " to " +
           lessons::format("%.6g", double(after[e])) + " = " + lessons::format("%.4g", k) + " x " +
           lessons::format("%.6g", double(before[e])) + " + " + lessons::format("%.6g", -double(lr) * got[e]) +
           (over_n ? ". The division by n was applied to your chunk of the parameters, where it belongs to your "
                     "chunk of the gradient."
                   : ". Something scaled the parameters: only the update may change them.")};
  }
  // Not one wrong place moved: this rank's chunk was never stepped, though the update ran (the
  // parameters' check saw steps elsewhere): it stepped another chunk than the one this rank owns.
  if (unmoved == wrong && otherwise == wrong && stepped_here == wrong)
    return {true, "Yet not one of these places moved at step 0 ([" + std::to_string(example) + "] stayed " +
                      lessons::format("%.6g", double(before[e])) + "), and every one holds the mean less lr times "
                      "the mean (" + lessons::format("%.6g", want[e]) + " - " + lessons::format("%.6g", double(lr)) +
                      " x " + lessons::format("%.6g", want[e]) + " = " + lessons::format("%.6g", got[e]) +
                      "): the step, -lr times the velocity (the mean, from rest), was written into your chunk of "
                      "the gradient, not into the parameters — sgd_momentum steps its first argument, your chunk "
                      "of the parameters."};
  if (unmoved == wrong && otherwise == wrong)
    return {true, "Yet not one of these places moved at step 0 ([" + std::to_string(example) + "] stayed " +
                      lessons::format("%.6g", double(before[e])) + "): this rank's own chunk was never stepped, and "
                      "the gradient there was never divided either. The division and the update worked on another "
                      "chunk than the one this rank owns — one possibility is the chunk taken with another rank's "
                      "number (owned_chunk(grad.size(), comm.size(), comm.rank()) is this rank's)."};
  return {true, "Yet the update did not step with this gradient: at step 0 (the momentum still 0) a step with it moves [" +
         std::to_string(example) + "] by " + lessons::format("%.6g", -double(lr) * got[e]) + ", the parameter moved " +
         lessons::format("%.6g", double(after[e]) - before[e]) + "; " +
         (otherwise == wrong ? "so did every wrong place" : ringlab::plural(otherwise, "wrong place") + " of " +
                                                                std::to_string(wrong) + " moved otherwise") +
         ". The gradient each rank's chunk holds after the step is not the one its update stepped with: one "
         "possibility is that the update divided and read another chunk of the gradient (or another copy of it)."};
}

// How the velocity after step 0 relates to the mean gradient (the right velocity: from rest,
// velocity = grad): 1 when it is right, k when it is k times the mean everywhere, NaN otherwise
// (asked only after step 0). It tells what a step that moved too far was handed: a right velocity means the
// right gradient and a too big learning rate; a velocity k times the mean, k times the gradient.
inline double velocity_factor(const std::vector<float>& velocity, const std::vector<float>& mean) {
  if (mean.empty()) return NAN;
  // k from the largest gradient; then every element within the gradient check's tolerance of it
  // (the sums round differently from the one-process gradient, by about 1e-7 of the largest).
  std::size_t top = 0;
  for (std::size_t i = 0; i < mean.size(); ++i)
    if (std::fabs(mean[i]) > std::fabs(mean[top])) top = i;
  if (mean[top] == 0) return NAN;
  const double k = double(velocity[top]) / mean[top], slack = kGradientTolerance * std::fabs(k * mean[top]);
  for (std::size_t i = 0; i < mean.size(); ++i)
    if (std::fabs(velocity[i] - k * mean[i]) > slack) return NAN;
  return k;
}

// This rank's parameters after step `s` were wrong (the gradient was right): how each wrong
// element moved against how far stage 0 moved it, and where the wrong ones lie — inside this
// rank's own shard (its update) or outside it (what the other ranks' updates became here). When
// no relation holds for all of them, each side is related on its own: an allgather that brought
// nothing leaves the outside unmoved whatever happened inside.
inline std::string explain_parameters(const ringlab::LayerwiseModel& model, int stage, int n, int rank, int s,
                                      float lr, float momentum, double velocity_k, const std::vector<float>& mean,
                                      const std::vector<float>& velocity_before, const std::vector<float>& before,
                                      const std::vector<float>& want, const std::vector<float>& got,
                                      bool gathered_as_reference) {
  double largest = 0, largest_step = 0;
  for (std::size_t i = 0; i < want.size(); ++i)
    largest = std::max(largest, std::fabs(double(want[i]))),
    largest_step = std::max(largest_step, std::fabs(double(want[i]) - before[i]));
  // A move is known only to the last bits of the weight it changed (float), and to the tolerance
  // of the gradient it was made from.
  const auto rounding = [&](std::size_t i) {
    return 2 * 1.2e-7 * std::fmax(std::fabs(double(before[i])), std::fabs(double(got[i]))) +
           kGradientTolerance * largest_step;
  };
  std::vector<ringlab::ValueEvidence> evidence[2];  // [0] outside this rank's shard, [1] inside
  std::vector<long long> index[2];
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (std::fabs(double(got[i]) - want[i]) <= kModelTolerance * std::fmax(1.0, largest)) continue;
    ringlab::ValueEvidence e;
    // How far stage 0 moved it. From rest (step 0) that is -lr * the mean gradient, known exactly
    // (no float weight rounds it), so a large factor of it is not lost in the weights' rounding.
    e.expected = s == 0 ? -double(lr) * mean[i] : double(want[i]) - before[i];
    e.got = double(got[i]) - before[i];        // how far it moved here
    e.rounding = rounding(i);
    const int side = owner_of(i, stage, model, n) == rank ? 1 : 0;
    evidence[side].push_back(e);
    index[side].push_back(static_cast<long long>(i));
  }
  if (evidence[0].empty() && evidence[1].empty()) return "";
  const std::string head = "stage " + std::to_string(stage) + ", step " + std::to_string(s) + ", rank " +
                           std::to_string(rank) + "'s parameters, how far each moved";
  std::vector<ringlab::ValueEvidence> all(evidence[0]);  // both sides, outside first
  all.insert(all.end(), evidence[1].begin(), evidence[1].end());
  std::vector<long long> where(index[0]);
  where.insert(where.end(), index[1].begin(), index[1].end());
  // After step 0 (from rest), a move of -lr * the mean gradient everywhere: the velocity was lost.
  if (s > 0)
    if (std::string lost = lessons::velocity_lost(head, all, where, lr, mean, rounding); !lost.empty()) return lost;
  // After step 0, a move of -lr * (k * the velocity before + the mean) everywhere: the velocity was
  // carried over times k where the momentum belongs.
  if (s > 0 && velocity_before.size() == mean.size()) {
    const auto moved = lessons::fit_two_terms(all, where, velocity_before, mean);
    if (const std::string carried = moved ? lessons::momentum_carried(*moved, lr, momentum, n) : "";
        !carried.empty())
      return lessons::wrong_values(head, all, where) + "; " + carried;
  }
  // Every wrong parameter 0, this rank's own shard among them (its update's result): set to 0 after
  // the update, so 0 is what every rank gathered.
  const bool zeros = std::all_of(where.begin(), where.end(), [&](long long i) { return got[static_cast<std::size_t>(i)] == 0; });
  if (zeros && !evidence[1].empty())
    return lessons::wrong_values(head, all, where) +
           "; every wrong parameter after the step is 0, in this rank's own shard too, where its update's "
           "result belongs: the parameters were set to 0 after the update — one possibility is a fill of the "
           "parameters before the allgather, which wipes this rank's updated chunk as well, so 0 is what every "
           "rank gathers (the allgather sends each rank's own chunk as it is, and leaves nothing to clear).";
  // At step 0 (from rest) the right velocity after the step is the mean gradient: parameters that
  // are it at every wrong place hold the velocity where the updated parameters belong.
  if (s == 0 && std::fabs(velocity_k - 1) < 1e-3 && !where.empty()) {
    double top = 0;
    for (float m : mean) top = std::max(top, std::fabs(double(m)));
    const bool velocity_there = std::all_of(where.begin(), where.end(), [&](long long i) {
      const auto k = static_cast<std::size_t>(i);
      return std::fabs(double(got[k]) - mean[k]) <= kGradientTolerance * top;
    });
    if (velocity_there)
      return lessons::wrong_values(head, all, where) +
             "; every wrong parameter after the step is the velocity the step leaves there (from rest, the mean "
             "gradient), where the parameters should have moved by -lr times it: the velocity took the "
             "parameters' place — one possibility is the velocity handed to the allgather where this rank's "
             "updated chunk of the parameters belongs.";
  }
  // At step 0, a move of (momentum - 1) * before + grad everywhere: params and velocity swapped.
  if (s == 0) {
    const auto moved = lessons::fit_two_terms(all, where, before, mean);
    if (const std::string swapped = moved ? lessons::params_velocity_swapped(*moved, momentum, "sgd_momentum") : "";
        !swapped.empty())
      return lessons::wrong_values(head, all, where) + "; " + swapped;
  }
  using ringlab::Relation;
  const double nn = n;
  // A step taken twice from rest moves 1 + (1 + momentum) steps; later steps, about 2.
  const double twice = s == 0 ? 2 + double(momentum) : 2.0;
  std::vector<ringlab::CauseOf> causes{{Relation::factor, "the update was applied twice", twice},
                                       {Relation::factor, "the update's sign is turned round", -1.0}};
  // From rest (step 0) a step momentum / lr times as far took the momentum as its learning rate.
  std::vector<ringlab::NamedFactor> known;
  if (s == 0) {
    known.push_back(lessons::lr_momentum_swapped_factor(lr, momentum));
    causes.push_back(lessons::lr_momentum_swapped_cause(lr, momentum, "sgd_momentum"));
    // A velocity 1 + momentum times the right one as well: the gradient was in it before the update.
    if (std::fabs(velocity_k - (1 + double(momentum))) < 1e-3) {
      known.push_back(lessons::gradient_in_velocity_factor(momentum));
      causes.push_back(lessons::gradient_in_velocity_cause(momentum, "sgd_momentum"));
    }
  }
  if (std::fabs(velocity_k - 1) < 1e-3)
    causes.push_back({Relation::factor,
                      "the velocity after the step is right, so the update was handed the right gradient: the "
                      "learning rate it used was that factor times the right one"});
  else if (std::fabs(velocity_k - nn) < 1e-3 * nn && n > 1)
    causes.push_back({Relation::factor,
                      "the velocity after the step is n times the mean as well: the update was handed the sum over "
                      "the ranks, not the mean — divide your chunk by comm.size() before the update",
                      nn});
  const std::string missing_gather =
      "the chunks the other ranks updated never reached this rank — the allgather after the update did not bring "
      "them (missing, or handed less than the whole parameters)";
  auto with = [&](ringlab::CauseOf zero) {
    std::vector<ringlab::CauseOf> c{std::move(zero)};
    c.insert(c.end(), causes.begin(), causes.end());
    return c;
  };
  // The allgather called as the reference calls it (the whole params) and still the other ranks'
  // chunks unmoved here: what it gathered from them had not moved — their update did not land in
  // their own chunk, or came after the gather. (This rank's chunk is right: rank 0's starts at 0.)
  if (evidence[1].empty() && n > 1 && gathered_as_reference) {
    std::vector<ringlab::CauseOf> c = causes;
    c.insert(c.begin(), {{Relation::zero, "that the other ranks' updates did not land in their own chunks of the "
                                          "parameters, so the allgather (called as the reference calls it) "
                                          "gathered them unmoved — each rank updates params.sub(mine.offset, "
                                          "mine.count); a slice at offset 0 is rank 0's chunk, right here only "
                                          "because it starts there"},
                         {Relation::zero, "that the allgather ran before the update, and gathered the chunks as "
                                          "they were"}});
    return ringlab::explain(head + " (wrong only outside its own shard)", evidence[0], n, c, "place", index[0],
                            known);
  }
  if (evidence[1].empty() && n > 1)
    return ringlab::explain(head + " (wrong only outside its own shard)", evidence[0], n,
                            with({Relation::zero, missing_gather}), "place", index[0], known);
  if (evidence[0].empty() || !ringlab::relate(all, n, known).empty())
    return ringlab::explain(head, all, n, with({Relation::zero, "this rank's update is missing"}), "place", where, known);
  return ringlab::explain(head + ", outside its own shard", evidence[0], n, with({Relation::zero, missing_gather}),
                          "place", index[0], known) +
         " " +
         ringlab::explain("Inside it", evidence[1], n, with({Relation::zero, "this rank's update is missing"}),
                          "place", index[1], known);
}

// The sizes a stage's views can have, named, for an error that gives sizes ("views of 235146 and
// 117573 elements"): the whole model, each rank's chunk of it (stage 1's shard) and where it starts.
inline std::vector<ringlab::NamedSize> known_sizes(const ringlab::LayerwiseModel& model, int n, int rank) {
  auto whose = [&](int r) { return r == rank ? std::string("this rank's") : "rank " + std::to_string(r) + "'s"; };
  const std::size_t all = model.parameter_count();
  std::vector<ringlab::NamedSize> known = {{all, "the whole model (Ψ)"}};
  for (int r = 0; r < n; ++r) known.push_back({ringlab::owned_chunk(all, n, r).count, whose(r) + " chunk"});
  // Where each chunk starts in the whole model: a slice there of a chunk-sized view runs past it.
  for (int r = 1; r < n; ++r)
    known.push_back({ringlab::owned_chunk(all, n, r).offset, "where " + whose(r) + " chunk starts in the whole model"});
  // A chunk of this rank's chunk: a shard cut in n, either by a collective handed the shard (a
  // ring cuts what it is given in n) or by owned_chunk taken of a shard's size (the velocity's,
  // say) where the whole model's belongs: both offered, neither told as the cause. (Only sizes no
  // name above has: one number, one reading.)
  const std::size_t shard = ringlab::owned_chunk(all, n, rank).count;
  for (int r = 0; r < n && n > 1; ++r) {
    const std::size_t size = ringlab::owned_chunk(shard, n, r).count;
    if (std::none_of(known.begin(), known.end(), [&](const auto& k) { return k.size == size; }))
      known.push_back({size, "a chunk of this rank's chunk: a shard cut in n — by a collective handed this rank's "
                             "chunk where the whole buffer belongs (it cuts what it is given in n), or by "
                             "owned_chunk() of a shard's size (the velocity's) where the whole model's belongs"});
  }
  return known;
}

// Checks `stages` (stage 0 is always run first, as the reference) on examples order[0, kSteps *
// batch) of `set`. Returns the exit code: 0 when every part holds for every stage.
inline int run_check(Communicator& comm, ringlab::LayerwiseModel& model, std::vector<int> stages,
                     const std::vector<float>& initial, int set, int batch, float lr, float momentum) {
  const int n = comm.size(), part = batch / n;
  Buffer<float> whole(model.parameter_count(), comm.where()),
      one_process(model.parameter_count(), comm.where());
  std::vector<float> ref_params, ref_velocity;
  double ref_sent = 0;  // the bytes stage 0's step 0 sent (the most over the ranks)
  std::vector<std::vector<float>> ref_steps;  // stage 0's parameters after each step
  std::string cause;                          // the first wrong quantity's diagnosis (rank 0's)
  ringlab::CallsFound calls;  // how stage 1's collectives differ from the reference's (empty when they do not)
  bool all_ok = true;
  if (stages.front() != 0) stages.insert(stages.begin(), 0);
  for (int stage : stages) {
    ShardedState st(comm, model, stage, initial);
    double worst_gradient = 0, sent = 0;
    std::vector<float> velocity_now;  // the velocity after the step before (empty before step 0)
    for (int s = 0; s < kSteps; ++s) {
      st.gather(ShardedState::What::params, whole.view());  // the model this step starts from
      const std::vector<float> before = to_host(whole.view());
      model.loss_and_gradient(whole.view().data(), set, s * batch, batch, one_process.view().data());
      std::optional<ringlab::trace::Capture> capture;  // step 0: the bytes it sends (part 4)
      if (s == 0) capture.emplace();
      const std::int64_t scopes_before = ringlab::trace::scopes_opened();
      try {
        st.step(set, s * batch + comm.rank() * part, part, lr, momentum);
      } catch (const std::exception& e) {  // say what the sizes in it are, then stop as before
        throw std::runtime_error(e.what() + ringlab::name_sizes(e.what(), known_sizes(model, n, comm.rank())));
      }
      if (stage == 1 && s == 0)  // stage 1's calls against the exercise's two (collective_calls.hpp)
        calls = ringlab::compare_calls(
            ringlab::trace::scope_calls_since(scopes_before), {{"reduce_scatter", "grad"}, {"allgather", "params"}},
            {{"grad", st.grad().data(), st.grad().size()}, {"params", st.params().data(), st.params().size()},
             {"velocity", st.velocity().data(), st.velocity().size()}},
            "stage 1's step");
      if (capture) sent = comm.max(ringlab::trace::bytes_sent(capture->take()));
      st.gather(ShardedState::What::grad, whole.view());
      const std::vector<float> grad = to_host(whole.view()), want = to_host(one_process.view());
      const double gradient_error = comm.max(lessons::relative_error(grad, want));
      worst_gradient = std::max(worst_gradient, gradient_error);
      // For the diagnosis: the parameters after the step, against stage 0's after the same step.
      st.gather(ShardedState::What::params, whole.view());
      const std::vector<float> after = to_host(whole.view());
      if (stage == 0) ref_steps.push_back(after);
      // The velocity after this step (a collective: every rank gathers, rank 0 reads): at step 0
      // against the mean (velocity_factor); the next step's diagnosis starts from it.
      double velocity_k = NAN;
      const std::vector<float> velocity_before = std::exchange(velocity_now, {});
      if (stage != 0) {
        st.gather(ShardedState::What::velocity, whole.view());
        velocity_now = to_host(whole.view());
        if (s == 0) velocity_k = velocity_factor(velocity_now, want);
      }
      if (stage == 0 || !cause.empty() || comm.rank() != 0) continue;
      if (gradient_error > kGradientTolerance)
        cause = explain_gradient(model, comm.where(), stage, n, s, set, batch, before, want, grad,
                                 stepped_with(s, n, lr, before, after, want, grad), momentum, velocity_k);
      else cause = explain_parameters(model, stage, n, 0, s, lr, momentum, velocity_k, want, velocity_before, before,
                                      ref_steps[s], after, stage == 1 && calls.text.empty());
    }
    model.take_loss_sum();  // (the check's losses are not reported)
    st.gather(ShardedState::What::params, whole.view());
    const std::vector<float> params = to_host(whole.view());
    st.gather(ShardedState::What::velocity, whole.view());
    const std::vector<float> velocity = to_host(whole.view());
    const bool agree = lessons::replicas_identical(comm, params, velocity);

    std::string versus = "the reference";
    bool same = true;
    if (stage == 0) {
      ref_params = params;
      ref_velocity = velocity;
    } else if (n <= 2) {
      same = std::memcmp(params.data(), ref_params.data(), params.size() * sizeof(float)) == 0 &&
             std::memcmp(velocity.data(), ref_velocity.data(), velocity.size() * sizeof(float)) == 0;
      same = comm.all_ok(same);
      versus = same ? "bit-identical to stage 0's ok" : "NOT bit-identical to stage 0's WRONG";
    } else {
      const double d = comm.max(std::max(lessons::relative_error(params, ref_params),
                                         lessons::relative_error(velocity, ref_velocity)));
      same = d <= kModelTolerance;
      versus = "vs stage 0's " + sci(d) + (same ? " ok" : " WRONG (> 1e-5)");
    }
    const bool gradient_ok = worst_gradient <= kGradientTolerance;
    // Part 4 (stage 1): a reduce-scatter and an allgather move what stage 0's one allreduce moves.
    if (stage == 0) ref_sent = sent;
    const bool traffic_ok = stage != 1 || std::fabs(sent - ref_sent) <= 0.01 * ref_sent;
    if (!traffic_ok && cause.empty())
      cause = "stage 1's step sent " + lessons::format("%.3g", sent / 1e6) + " MB (the most over the ranks), stage 0's " +
              lessons::format("%.3g", ref_sent / 1e6) + " MB: " + lessons::format("%.2f", sent / ref_sent) +
              " times as much. A reduce-scatter and an allgather together move what one allreduce moves" +
              (std::fabs(sent / ref_sent - 1.5) < 0.02
                   ? "; 1.5 times is one allreduce plus one allgather — one possibility is an allreduce where the "
                     "reduce-scatter belongs (every rank then sums the whole gradient, the point of sharding lost)."
                   : ".");
    all_ok = all_ok && agree && same && gradient_ok && traffic_ok;
    ringlab::print_once(comm, "check: stage " + std::to_string(stage) + ", " + std::to_string(kSteps) +
                                  " steps: averaged gradient vs one process " + sci(worst_gradient) +
                                  (gradient_ok ? " ok" : " WRONG (> 1e-5)") + "; model " + versus +
                                  "; shards " +
                                  (agree ? "agree on every rank ok" : "DIFFER between ranks WRONG") +
                                  (stage == 1 ? std::string("; bytes sent in a step ") +
                                                    (traffic_ok ? "as stage 0's ok" : "NOT stage 0's WRONG")
                                              : std::string()) +
                                  "\n");
  }
  // The calls first when they differ: they say what the step did; the values, where it shows.
  // (the values' diagnosis left out when the calls name the cause: collective_calls.hpp says why)
  if (calls.cause) cause = calls.text;
  else if (!calls.text.empty()) cause = calls.text + (cause.empty() ? "" : "\ndiagnosis: " + cause);
  if (const std::string unfinished = ringlab::harness::unfinished_transfer_first(comm); !unfinished.empty()) cause = unfinished;
  if (!all_ok && !cause.empty()) ringlab::print_once(comm, "diagnosis: " + cause + "\n");
  ringlab::print_once(
      comm, std::string("check: every stage holds stage 0's model: ") + (all_ok ? "PASSED\n" : "FAILED\n"));
  return all_ok ? 0 : 1;
}

}  // namespace lesson09
