// Lesson 04's --check: the synchronous parameter server and the ring against the same training
// in one process; the bytes per step against the formulas; the asynchronous server's
// bookkeeping: every worker's every push applied once, staleness never negative.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "model.hpp"
#include "parameter_server.hpp"
#include "ringlab/base/plural.hpp"
#include "ringlab/check/diagnose_runs.hpp"
#include "ringlab/check/harness.hpp"
#include "ringlab/check/diagnose_training.hpp"
#include "ringlab/check/value_relation.hpp"
#include "ringlab/ringlab.hpp"
#include "shared/format.hpp"

namespace lesson04 {

// The references, in one process: the same averaged gradients, the same order of additions.
// `after_step`, if given, gets the parameters after each step; `parts`, what each worker's
// gradient adds to each parameter's move in each step (-lr * g_w / workers), in arrival order.
inline std::vector<float> serial_sync(const Problem& pb, int steps, float lr, int first_worker, int workers,
                                      std::vector<std::vector<double>>* after_step = nullptr,
                                      std::vector<std::vector<std::vector<double>>>* parts = nullptr) {
  std::vector<float> p = pb.start, g(pb.size), sum(pb.size);
  for (int k = 0; k < steps; ++k) {
    std::fill(sum.begin(), sum.end(), 0.0f);
    if (parts) parts->emplace_back();
    for (int w = first_worker; w < first_worker + workers; ++w) {
      pb.gradient(w, k, p.data(), g.data());
      for (std::size_t i = 0; i < pb.size; ++i) sum[i] += g[i];
      if (parts) {
        auto& part = parts->back().emplace_back(pb.size);
        for (std::size_t i = 0; i < pb.size; ++i) part[i] = -double(lr) * g[i] / workers;
      }
    }
    for (std::size_t i = 0; i < pb.size; ++i) p[i] -= lr * (sum[i] / static_cast<float>(workers));
    if (after_step) after_step->emplace_back(p.begin(), p.end());
  }
  return p;
}

inline long long compare_params(ringlab::Communicator& comm, const std::vector<float>& ref,
                                const std::vector<float>& got, int terms, const char* what) {
  using namespace ringlab;
  const auto r = compare<float>(View<const float>(ref), View<const float>(got), terms);
  if (r.wrong) log(Level::error) << what << ": " << describe(r);
  return comm.sum(r.wrong);
}

// What a worker pulled, against what the server held: after a right pull, worker 1's parameters
// after step k are the server's after step k. The server sends its steps to worker 1, which relates
// each differing value to the server's value and to the server's value of the step before (a
// worker one step behind was sent the parameters before the update), and to the gradient the
// server stepped with (how far it moved, over lr: a worker sent that was sent the wrong buffer).
// "" where they agree, and on every other rank.
inline std::string pull_diagnosis(ringlab::Communicator& comm, const std::vector<std::vector<double>>& after_step,
                                  const std::vector<float>& start, std::size_t size, int steps, float lr) {
  using ringlab::Relation;
  if (comm.size() < 2 || after_step.size() != static_cast<std::size_t>(steps)) return "";
  std::vector<double> server(static_cast<std::size_t>(steps) * size);
  if (comm.rank() == kServer) {
    for (int k = 0; k < steps; ++k) std::copy(after_step[k].begin(), after_step[k].end(), server.begin() + k * size);
    comm.send(ringlab::View<const double>(server), 1);
    return "";
  }
  if (comm.rank() != 1) return "";
  comm.recv(ringlab::View<double>(server), kServer);
  std::vector<ringlab::ValueEvidence> evidence;
  std::vector<long long> index;
  std::vector<double> mean;  // per wrong value: the server's averaged gradient there in that step
  for (int k = 0; k < steps; ++k)
    for (std::size_t i = 0; i < size; ++i) {
      const double want = server[k * size + i], got = after_step[k][i];
      if (std::fabs(got - want) <= 1e-6 * std::fmax(1.0, std::fabs(want))) continue;
      const double before = k ? server[(k - 1) * size + i] : start[i];
      evidence.push_back({.expected = want, .got = got, .own = start[i], .before = before});
      index.push_back(static_cast<long long>(i));
      mean.push_back((before - want) / lr);
    }
  if (evidence.empty()) return "";
  // What else the server held at each step: the mean of the gradients it stepped with (how far it
  // moved, over lr) and their sum. A worker that pulled one of them was sent the wrong buffer.
  double largest = 0;
  for (double m : mean) largest = std::fmax(largest, std::fabs(m));
  auto pulled = [&](double times) {  // every wrong value == times * the server's mean gradient there
    for (std::size_t e = 0; e < evidence.size(); ++e)
      if (std::fabs(evidence[e].got - times * mean[e]) > 1e-3 * times * largest) return false;
    return true;
  };
  for (const auto& [times, what] : {std::pair{double(comm.size() - 1), "the sum of the gradients the server added up"},
                                    std::pair{1.0, "the averaged gradient the server stepped with"}})
    if (pulled(times))
      return "worker 1's parameters after each step are " + std::string(what) +
             " in that step (e.g. [" + std::to_string(index.front()) + "] got " +
             lessons::format("%g", evidence.front().got) +
             "), not its parameters: the server sends that buffer where it must send the parameters.";
  return ringlab::explain(
      "worker 1's parameters after each step against the server's", evidence, comm.size() - 1,
      {{Relation::step_before,
        "the workers are one step behind: what they pulled is the server's parameters from before its update — "
        "the server sends them before the SGD step; send them after it"},
       {Relation::own, "what the workers pull never reaches their parameters (they stay where they started)"}},
      "place", index);
}

// How far each worker's parameters moved in step 0 (from the start), over how far the server's did: for
// worker w, factors[w], where one factor fits every parameter that moved (NaN where none does, and
// at [0], the server). Collective: the server sends its step 0 to every worker.
inline std::vector<double> step0_factors(ringlab::Communicator& comm, const Run& ps, const std::vector<float>& start,
                                         std::size_t size) {
  std::vector<double> factors(comm.size(), NAN);
  if (ps.after_step.empty() || comm.size() < 2) return factors;  // (the same on every rank)
  std::vector<double> server0(size);
  if (comm.rank() == kServer)
    for (int w = 1; w < comm.size(); ++w) comm.send(ringlab::View<const double>(ps.after_step[0]), w);
  else comm.recv(ringlab::View<double>(server0), kServer);
  double mine = NAN, largest = 0;
  for (std::size_t i = 0; i < size; ++i) largest = std::fmax(largest, std::fabs(server0[i] - start[i]));
  for (std::size_t i = 0; comm.rank() != kServer && i < size; ++i) {
    const double server_moved = server0[i] - start[i];
    if (std::fabs(server_moved) <= 1e-3 * largest) continue;  // ratios of tiny moves are noise
    const double r = (ps.after_step[0][i] - start[i]) / server_moved;
    if (std::isnan(mine)) mine = r;
    else if (std::fabs(r - mine) > 1e-3 * std::fmax(1.0, std::fabs(mine))) {
      mine = NAN;  // no one factor fits
      break;
    }
  }
  for (int w = 1; w < comm.size(); ++w) {
    const bool here = comm.rank() == w;
    const double f = comm.sum(here ? mine : 0.0);
    if (comm.sum(static_cast<long long>(here && std::isfinite(mine))) == 1) factors[w] = f;
  }
  return factors;
}

// The server's side, when the workers' step-0 factors (above) are w / W for worker w: the server
// stepped once per worker, inside the loop that sends. "" otherwise.
inline std::string stepped_per_send(const std::vector<double>& factors) {
  const int workers = static_cast<int>(factors.size()) - 1;
  if (workers < 2) return "";  // one worker: one step either way
  std::string seen;
  for (int w = 1; w <= workers; ++w) {
    if (!(std::fabs(factors[w] - double(w) / workers) <= 1e-3)) return "";
    seen += lessons::format("%sworker %d %.3g", w > 1 ? ", " : "", w, factors[w]);
  }
  return lessons::format(
      "in step 0 worker w's parameters moved w/%d of the server's move (%s): the server takes its SGD step "
      "once per worker, inside the loop that sends, so worker w gets the parameters after w steps and the "
      "server takes %d. Take the step once, after the gradients are summed and before the sends.",
      workers, seen.c_str(), workers);
}

// The server's `sum` after step 0, where the server's parameters did not move in it: a sum that is
// still 0, where it should hold the workers' gradients added up, says that nothing was added into
// it, or that it was cleared before the update read it (the evidence does not tell which: both
// are offered). "" otherwise (a server that moved, or a sum that holds something, is for diagnose_training).
inline std::string nothing_summed(const Problem& pb, int workers, const Run& ps) {
  if (ps.after_step.empty() || ps.server_sum.size() != pb.size) return "";
  auto zero = [](double v) { return v == 0; };
  if (!std::equal(ps.after_step[0].begin(), ps.after_step[0].end(), pb.start.begin()) ||
      !std::all_of(ps.server_sum.begin(), ps.server_sum.end(), zero))
    return "";
  std::vector<float> p = pb.start, g(pb.size), sum(pb.size, 0.0f);
  for (int w = 1; w <= workers; ++w) {
    pb.gradient(w, 0, p.data(), g.data());
    for (std::size_t i = 0; i < pb.size; ++i) sum[i] += g[i];
  }
  const std::size_t i = static_cast<std::size_t>(
      std::max_element(sum.begin(), sum.end(), [](float a, float b) { return std::fabs(a) < std::fabs(b); }) -
      sum.begin());
  if (sum.empty() || sum[i] == 0) return "";
  return lessons::format(
      "the server's parameters did not move in step 0, and its `sum` is still 0 after it, where it should hold the "
      "%s added up (e.g. [%zu] %g): it held nothing when the update read it — one possibility is that "
      "nothing was added into `sum` (ringlab::reduce_sum(dst, src) adds src into dst: `sum` is its first argument, "
      "what arrived its second); another, that `sum` was set to 0 after the adds, before the update read it (zero "
      "it before the receives); another, that each add came before its receive and added what `incoming` held "
      "before the message arrived.",
      ringlab::plural(workers, "gradient").c_str(), i, sum[i]);
}

// `*_over_formula`: the bytes per step main.cpp measured, over what the formula says (1 when
// they agree): the server's sent + received, the busiest ring rank's sent and its received.
// Returns the number of wrong values over all ranks.
inline long long check_training(ringlab::Communicator& comm, const Problem& pb, int steps, float flr,
                                const Run& ps, const Run& ring, const Run& async, const AsyncStats& stats,
                                double server_over_formula, double ring_sent_over_formula,
                                double ring_recv_over_formula) {
  const int N = comm.size();
  std::vector<std::vector<double>> ps_reference;
  std::vector<std::vector<std::vector<double>>> parts;  // (only the server looks at them)
  const long long w_ps =
      compare_params(comm, serial_sync(pb, steps, flr, 1, N - 1, &ps_reference, comm.rank() == kServer ? &parts : nullptr),
                     ps.params, N, "parameter server");
  // Why: first how far each worker moved in step 0 against the server (a server that steps per
  // send) and a server whose sum stayed 0 (nothing added into it); then what the workers pulled (a
  // wrong pull makes every later gradient wrong, so it speaks before the server's own steps); then
  // the server's parameters step by step: the first wrong step, how far it moved.
  // The order of the additions: the values may agree to rounding, but a server that takes the
  // gradients as they arrive sums them in an order that changes from run to run.
  const long long any_order = comm.sum(ps.any_source);
  if (any_order > 0 && comm.rank() == kServer)
    std::printf("diagnosis: the parameter server took %s with recv_from_any (whichever worker is first) in the "
                "synchronous step, where server_step adds them in rank order 1 .. workers, as the reference does: "
                "in arrival order the sum's rounding changes from run to run, and the same training gives other "
                "parameters. recv_from_any belongs to the asynchronous server.\n",
                ringlab::plural(any_order, "gradient").c_str());
  // Values right and every gradient taken in rank order, but the transfers (or the phases the
  // trace gives them) are not the schedule's: what the values cannot show.
  const bool on_schedule = comm.all_ok(ps.departure.empty());  // (rank 0 holds it)
  const long long departed = w_ps == 0 && any_order == 0 && !on_schedule ? 1 : 0;
  if (departed && comm.rank() == kServer)
    std::printf("diagnosis: the parameters are right, but the transfers depart from the parameter server's "
                "schedule: %s\n",
                ps.departure.c_str());
  if (w_ps) {
    const std::string unfinished = ringlab::harness::unfinished_transfer_first(comm);
    const std::string per_send =
        unfinished.empty() ? stepped_per_send(step0_factors(comm, ps, pb.start, pb.size)) : "";
    const auto pulled = comm.gather_strings(
        unfinished.empty() ? pull_diagnosis(comm, ps.after_step, pb.start, pb.size, steps, flr) : std::string());
    if (comm.rank() == kServer) {
      std::string why = unfinished;
      if (why.empty() && !per_send.empty()) why = "the server: " + per_send;
      if (const std::string none = nothing_summed(pb, N - 1, ps); why.empty() && !none.empty())
        why = "the parameter server: " + none;
      for (const auto& text : pulled)
        if (why.empty() && !text.empty()) why = "the workers: " + text;
      if (why.empty()) {
        double factor = NAN;  // how far step 0 moved, for the runs together (factor-of-workers)
        const std::vector<double> start(pb.start.begin(), pb.start.end());
        why = ringlab::diagnose_training(start, ps_reference, ps.after_step, N - 1,
                                         "the number of workers (comm.size() - 1)", parts, &factor);
        if (std::isfinite(factor)) ringlab::record_check_factor(factor);
        if (!why.empty()) why = "the parameter server: " + why;
      }
      if (!why.empty()) std::printf("diagnosis: %s\n", why.c_str());
    }
  }
  const long long w_ring = compare_params(comm, serial_sync(pb, steps, flr, 0, N), ring.params, N, "ring");
  long long w_bytes = 0, w_async = 0;
  if (std::fabs(server_over_formula - 1) > 1e-3) ++w_bytes;
  if (std::fabs(ring_sent_over_formula - 1) > 1e-3 || std::fabs(ring_recv_over_formula - 1) > 1e-3) ++w_bytes;
  if (comm.rank() == 0) {
    if (static_cast<int>(stats.staleness.size()) != steps * (N - 1)) ++w_async;
    for (int s : stats.staleness) w_async += s < 0;
    if (!std::isfinite(async.losses.back())) ++w_async;
  }
  w_async = comm.sum(w_async);
  ringlab::print_once(comm,
                      lessons::format("\ncheck: sync PS vs one process #wrong %lld, ring vs one process "
                                      "#wrong %lld, bytes vs formulas #wrong %lld, async bookkeeping "
                                      "#wrong %lld%s\n",
                                      w_ps, w_ring, w_bytes, w_async,
                                      any_order ? lessons::format(", sync PS additions out of rank order %lld", any_order).c_str()
                                      : departed ? ", sync PS schedule WRONG"
                                                 : ""));
  return w_ps + any_order + departed + w_ring + w_bytes + w_async;
}

}  // namespace lesson04
